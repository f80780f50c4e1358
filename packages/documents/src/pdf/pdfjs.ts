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
  const source = await readFile(path, 'utf8');
  const at = source.indexOf(UNOBSERVED_KID_FETCH);
  if (at < 0 || source.indexOf(UNOBSERVED_KID_FETCH, at + 1) >= 0) {
    // pdfjs-dist is pinned; a new version must be checked for this hazard before it is used.
    throw new Error(`${path} is not the pdf.js worker this package was checked against (pdfjs-dist 5.6.205)`);
  }
  const fixed = source.slice(0, at) + OBSERVED_KID_FETCH + source.slice(at + UNOBSERVED_KID_FETCH.length);
  return `data:text/javascript;base64,${Buffer.from(fixed).toString('base64')}`;
}
