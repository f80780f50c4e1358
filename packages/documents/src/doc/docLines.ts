/**
 * The non-empty lines of a Word document's text, spaces collapsed and ends trimmed. `trim()` rather than
 * `/^\s+|\s+$/g`, whose end-anchored half rescans every run of white space: 50,000 tabs inside a line took 2.8 s.
 */
export function docLines(text: string): string[] {
  return text.split(/[\n\r]+/).map((line) => line.replace(/[ \u00a0]+/g, ' ').trim()).filter((line) => line !== '');
}
