import { inputErrorToApiCode, resolveTextInput } from '@content-analysis/documents';
import { ApiError } from '../errors.js';
import type { FeatureContext } from '../feature.js';

/** The text a request analyses and where it came from. */
export interface AnalysedText {
  input: 'website' | 'file' | 'text';
  text: string;
  /** The URL read, after redirects (website and file). */
  url?: string;
  title?: string;
}

/**
 * Turns an error of reading a document or a remote input into an API error (BAD_REQUEST for a document without
 * text, too large, corrupt or of the wrong type; FORBIDDEN for a URL the service cannot or may not reach); any
 * other error passes through unchanged.
 */
export function documentInputError(error: unknown): unknown {
  const code = inputErrorToApiCode(error);
  return code === undefined ? error : new ApiError(code, (error as Error).message, { cause: error });
}

/** Whether a field counts as given, by `resolveTextInput`'s rule: present and not an empty string. */
const given = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/**
 * Resolves the `website`, `file` and `text` fields by the spec's priority (website, then file, then text), reads
 * a remote page or document through the guarded fetcher, and applies the endpoint's bounds to the text that will
 * be analysed. A `website` or `file` is read once per request (`context.inputs`): a worker gets the text its API
 * node read. Failures are API errors: a document without text or too large is BAD_REQUEST, a URL the service
 * cannot or may not reach is FORBIDDEN.
 */
export async function analysedText(
  fields: { website?: string | undefined; file?: string | undefined; text?: string | undefined },
  context: FeatureContext,
  bounds: { min: number; max: number },
): Promise<AnalysedText> {
  const read = async (): Promise<AnalysedText> => {
    let resolved;
    try {
      resolved = await resolveTextInput(fields, {
        fetch: context.fetchOptions,
        // A document's text is extracted where the analyses run (the engine's worker pool), off the event loop.
        extract: (bytes, limits) => context.analysis.extractDocument(bytes, limits, context.fetchOptions.signal),
      });
    } catch (error) {
      throw documentInputError(error);
    }
    return {
      input: resolved.input,
      text: resolved.text,
      ...(resolved.url === undefined ? {} : { url: resolved.url }),
      ...(resolved.title === undefined ? {} : { title: resolved.title }),
    };
  };
  // A remote input is read once per request, and a worker analyses the text its API node read and priced.
  const key = given(fields.website) ? `website ${String(fields.website)}` : given(fields.file) ? `file ${String(fields.file)}` : undefined;
  const analysed = key === undefined ? await read() : await context.inputs.text(key, read);
  const { input, text } = analysed;
  if (input !== 'text') {
    const what = input === 'website' ? 'The web page' : 'The document';
    if (text.length < bounds.min) {
      throw new ApiError('BAD_REQUEST', `${what} at ${input} has ${text.length} characters of text; at least ${bounds.min} are needed.`);
    }
    if (text.length > bounds.max) {
      throw new ApiError('BAD_REQUEST', `${what} at ${input} has ${text.length} characters of text; at most ${bounds.max} are accepted.`);
    }
  }
  return analysed;
}
