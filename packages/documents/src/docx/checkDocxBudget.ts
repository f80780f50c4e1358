import { DocumentError } from '../errors.js';
import type { ZipEntry } from './readZipEntries.js';

/** Budgets of {@link checkDocxBudget}. */
export interface DocxBudget {
  maxElements: number;
  maxParagraphs: number;
  maxTextLength: number;
}

const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;
const SLASH = 0x2f;
const QUESTION = 0x3f;
const BANG = 0x21;
const XML_PART = /\.(?:xml|rels)$/i;
// Parts whose character data becomes text: the body, notes, comments, headers and footers.
const TEXT_PART = /^word\/[^/]*\.xml$/i;
// Bytes of character data allowed per character of text: entities (`&amp;` is five bytes for one character) and
// UTF-8 (up to three bytes per UTF-16 unit) make the raw data longer than the text it decodes to.
const BYTES_PER_CHARACTER = 6;

/**
 * Counts the elements and paragraphs of a DOCX document's XML parts with a byte scan (no string, no tree), so a
 * document whose reader would need gigabytes fails in milliseconds: mammoth builds an object per element (about
 * 2 KB of heap each, measured), and a 149 KB archive can hold 1.5 million paragraphs. Paragraphs are `<w:p>`
 * elements under their usual prefix; the element count bounds them under any other prefix.
 * @throws {DocumentError} `TOO_MANY_ELEMENTS`, `TOO_MANY_PARAGRAPHS`, `TOO_MUCH_TEXT`.
 */
export function checkDocxBudget(entries: readonly ZipEntry[], budget: DocxBudget): void {
  let elements = 0;
  let paragraphs = 0;
  let characterData = 0;
  for (const { name, data } of entries) {
    if (!XML_PART.test(name)) continue;
    const textPart = TEXT_PART.test(name);
    let position = data.indexOf(LESS_THAN);
    let previousEnd = 0;
    while (position >= 0) {
      if (textPart) characterData += position - previousEnd;
      const next = data[position + 1];
      if (next !== SLASH && next !== QUESTION && next !== BANG && next !== undefined) {
        elements += 1;
        if (elements > budget.maxElements) {
          throw new DocumentError('TOO_MANY_ELEMENTS', `The DOCX document has more than ${budget.maxElements} XML elements; the limit is ${budget.maxElements}.`);
        }
        if (next === 0x77 && data[position + 2] === 0x3a && data[position + 3] === 0x70 && isNameEnd(data[position + 4])) {
          paragraphs += 1;
          if (paragraphs > budget.maxParagraphs) {
            throw new DocumentError('TOO_MANY_PARAGRAPHS', `The DOCX document has more than ${budget.maxParagraphs} paragraphs; the limit is ${budget.maxParagraphs}.`);
          }
        }
      }
      const end = data.indexOf(GREATER_THAN, position + 1);
      if (end < 0) break;
      previousEnd = end + 1;
      position = data.indexOf(LESS_THAN, previousEnd);
    }
    if (textPart && position < 0) characterData += data.length - previousEnd;
  }
  if (characterData > BYTES_PER_CHARACTER * budget.maxTextLength) {
    throw new DocumentError('TOO_MUCH_TEXT', `The DOCX document holds more than ${budget.maxTextLength} characters of text.`);
  }
}

/** Whether the byte after `<w:p` ends the element name (so `<w:pPr>` is not a paragraph). */
function isNameEnd(byte: number | undefined): boolean {
  return byte === GREATER_THAN || byte === SLASH || byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}
