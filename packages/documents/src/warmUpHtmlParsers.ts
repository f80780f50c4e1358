import { linkedom, readability } from './lazyModules.js';

/**
 * Loads the HTML parsers now (linkedom and readability, about 0.7 s on a busy 2-core machine): a process that reads
 * `website` inputs on its event loop calls it at start, so that the first page does not stall everything else.
 * In a file of its own so that the package's public declarations do not import linkedom's and readability's, which
 * need the DOM library (a strict consumer without it would not compile).
 */
export function warmUpHtmlParsers(): void {
  linkedom();
  readability();
}
