import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/**
 * pdf.js' worker (run in this thread, as pdf.js does in Node) prefetches the last kid of the page tree and leaves
 * the promise of that fetch unobserved: a kid whose xref entry is broken ends the process with an unhandled
 * `XRefEntryException` (found by scripts/fuzz). The fix observes that promise; it is applied here, to the worker's
 * source as loaded, so that it travels with this package instead of living in a workspace patch.
 */
const UNOBSERVED_KID_FETCH = 'pageDictCache.put(lastKid, xref.fetchAsync(lastKid));';
const OBSERVED_KID_FETCH = 'const kidPromise = xref.fetchAsync(lastKid);\n          kidPromise.catch(() => {});\n          pageDictCache.put(lastKid, kidPromise);';

/**
 * The second change: a decoded stream may not grow past `globalThis.__contentAnalysisMaxDecodedStreamBytes` (set by
 * extractPdf from `maxInflatedStreamBytes`); the growth step of pdf.js' DecodeStream throws instead, and counts the
 * hit so that extractPdf can answer STREAMS_TOO_LARGE. This catches what the pre-scan cannot see (a content stream
 * declared as an image, filters other than Flate).
 */
const UNBOUNDED_STREAM_GROWTH = '    let size = this.minBufferLength;\n    while (size < requested) {';
const BOUNDED_STREAM_GROWTH =
  '    const decodeLimit = globalThis.__contentAnalysisMaxDecodedStreamBytes;\n' +
  '    if (typeof decodeLimit === "number" && requested > decodeLimit) {\n' +
  '      globalThis.__contentAnalysisDecodeLimitHits = (globalThis.__contentAnalysisDecodeLimitHits || 0) + 1;\n' +
  '      this.eof = true;\n' +
  '      throw new Error(`A stream decodes to more than ${decodeLimit} bytes.`);\n' +
  '    }\n' +
  UNBOUNDED_STREAM_GROWTH;

let loading: Promise<PdfJs> | undefined;

/** pdf.js (legacy build), imported on the first PDF, with its in-thread worker replaced by the fixed one. */
export function pdfjs(): Promise<PdfJs> {
  loading ??= (async () => {
    const pdf = await import('pdfjs-dist/legacy/build/pdf.mjs');
    pdf.GlobalWorkerOptions.workerSrc = await fixedWorkerUrl();
    return pdf;
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The worker module with the fix, as a `data:` URL (pdf.js imports its worker from `workerSrc`). */
export async function fixedWorkerUrl(): Promise<string> {
  const path = createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
  let fixed = await readFile(path, 'utf8');
  for (const [from, to] of [
    [UNOBSERVED_KID_FETCH, OBSERVED_KID_FETCH],
    [UNBOUNDED_STREAM_GROWTH, BOUNDED_STREAM_GROWTH],
  ] as const) {
    const at = fixed.indexOf(from);
    if (at < 0 || fixed.indexOf(from, at + 1) >= 0) {
      // pdfjs-dist is pinned; a new version must be checked for these hazards before it is used.
      throw new Error(`${path} is not the pdf.js worker this package was checked against (pdfjs-dist 5.6.205)`);
    }
    fixed = fixed.slice(0, at) + to + fixed.slice(at + from.length);
  }
  return `data:text/javascript;base64,${Buffer.from(fixed).toString('base64')}`;
}
