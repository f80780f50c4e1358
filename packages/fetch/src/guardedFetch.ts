import type { IncomingHttpHeaders } from 'node:http';
import { createDeadline } from './deadline.js';
import { FetchError } from './errors.js';
import { openResponse } from './openResponse.js';
import { resolveOptions } from './options.js';
import type { GuardedFetchOptions } from './options.js';
import { readBody } from './readBody.js';
import { resolveCheckedAddresses } from './resolveHost.js';
import { resolveContentType } from './resolveContentType.js';
import { checkPublicUrl, validatePublicUrl } from './validatePublicUrl.js';

/** A fetched resource: the final response, its whole (decoded) body and its sniffed type. */
export interface FetchedResource {
  /** Final URL, after redirects. */
  url: string;
  status: number;
  bytes: Buffer;
  /** Content type judged from the bytes (see `sniffContentType`). */
  contentType: string;
  /** Content-Type header of the final response, as sent. */
  declaredContentType?: string;
  /** Every URL redirected to, in order; empty when there was no redirect. */
  redirects: string[];
  /** Headers of the final response, lowercased names, repeated values joined with `, `. */
  headers: Record<string, string>;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Credentials meant for one origin are not handed to another one on a redirect.
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * Fetches a caller-supplied URL without letting it reach anything but public hosts. Every hop
 * (the URL and each redirect) is checked statically, resolved, and refused if any address is not
 * public; the socket then goes to a checked address. Size, time and content kind are bounded.
 *
 * @throws {FetchError} with a stable `code` (see `FetchErrorCode`); `TypeError`/`RangeError` for bad options;
 *   the caller's `signal.reason` when it aborts.
 */
export async function guardedFetch(input: string | URL, options: GuardedFetchOptions = {}): Promise<FetchedResource> {
  const settings = resolveOptions(options);
  let url = validatePublicUrl(input);
  const deadline = createDeadline(settings.timeoutMs, url.href, settings.signal);
  const { signal } = deadline;
  let headers = { ...settings.headers };
  if (settings.accept !== undefined && headers.accept === undefined) headers.accept = settings.accept.join(', ');
  const redirects: string[] = [];
  try {
    for (;;) {
      const addresses = await resolveCheckedAddresses(url, settings.resolve, signal);
      const response = await openResponse(url, addresses, {
        headers,
        connectTimeoutMs: settings.connectTimeoutMs,
        dial: settings.dial,
        signal,
      });
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(status) && location !== undefined) {
        response.destroy();
        if (redirects.length >= settings.maxRedirects) {
          throw new FetchError('TOO_MANY_REDIRECTS', `More than ${settings.maxRedirects} redirects`, { url: url.href });
        }
        const next = redirectTarget(location, url);
        if (next.origin !== url.origin) headers = withoutOriginBoundHeaders(headers);
        redirects.push(next.href);
        url = next;
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        const text = response.statusMessage ? ` ${response.statusMessage}` : '';
        throw new FetchError('HTTP_STATUS', `The server answered ${status}${text}`, { url: url.href, status });
      }
      const bytes = await readBody(response, settings.maxBytes, signal, url.href);
      const declared = response.headers['content-type'];
      const resource: FetchedResource = {
        url: url.href,
        status,
        bytes,
        contentType: resolveContentType(bytes, declared, settings.accept, url.href),
        redirects,
        headers: flattenHeaders(response.headers),
      };
      if (declared !== undefined) resource.declaredContentType = declared;
      return resource;
    }
  } catch (error) {
    // A timer or caller abort can surface as a socket error; report the abort itself.
    if (signal.aborted && !(error instanceof FetchError && error.code !== 'NETWORK')) throw signal.reason;
    throw error;
  } finally {
    deadline.dispose();
  }
}

function redirectTarget(location: string, from: URL): URL {
  let href: string;
  try {
    href = new URL(location, from).href;
  } catch {
    throw new FetchError('INVALID_REDIRECT', `The server redirected to an invalid URL: ${location}`, { url: from.href });
  }
  const checked = checkPublicUrl(href);
  if (checked instanceof URL) return checked;
  const code = checked.kind === 'host' ? 'FORBIDDEN_ADDRESS' : 'INVALID_REDIRECT';
  throw new FetchError(code, `Redirect to ${href} rejected: ${checked.message}`, { url: from.href });
}

function withoutOriginBoundHeaders(headers: Record<string, string>): Record<string, string> {
  const kept = { ...headers };
  for (const name of ORIGIN_BOUND_HEADERS) delete kept[name];
  return kept;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
