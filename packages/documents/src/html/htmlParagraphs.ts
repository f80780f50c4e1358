import type { TextPiece } from '../textBuilder.js';
import { normaliseInline } from '../textBuilder.js';
import { ELEMENT_NODE, TEXT_NODE } from './dom.js';
import type { DomElement, DomNode } from './dom.js';

/** Elements that end the paragraph before them and start a new one. */
const BLOCKS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'DD', 'DETAILS', 'DIV', 'DL', 'DT', 'FIGCAPTION', 'FIGURE', 'FOOTER',
  'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION',
  'SUMMARY', 'TABLE', 'TBODY', 'THEAD', 'TFOOT', 'UL', 'CAPTION',
]);
/** Elements whose content is never text a reader sees. */
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'OBJECT', 'BUTTON', 'SELECT', 'INPUT', 'TEXTAREA', 'HEAD']);

/**
 * Splits the content of an element into paragraphs the way it reads: each block element (paragraph, heading, list
 * item, ...) is its own paragraph, inline content is joined with whitespace collapsed, a `<br>` is a space, and a
 * table row becomes one paragraph of its cells separated by tabs.
 */
export function htmlParagraphs(root: DomNode): TextPiece[][] {
  const paragraphs: TextPiece[][] = [];
  let inline = '';
  const flush = () => {
    const text = normaliseInline(inline);
    if (text !== '') paragraphs.push([{ text }]);
    inline = '';
  };
  const walk = (node: DomNode) => {
    if (node.nodeType === TEXT_NODE) {
      inline += node.textContent ?? '';
      return;
    }
    if (node.nodeType !== ELEMENT_NODE) return;
    const name = node.nodeName.toUpperCase();
    if (SKIPPED.has(name)) return;
    if (name === 'BR') {
      inline += ' ';
      return;
    }
    if (name === 'TR') {
      flush();
      const cells = Array.from((node as DomElement).querySelectorAll('td, th'))
        .map((cell) => normaliseInline(cell.textContent ?? ''))
        .filter((cell) => cell !== '');
      if (cells.length > 0) paragraphs.push([{ text: cells.join('\t') }]);
      return;
    }
    const block = BLOCKS.has(name);
    if (block) flush();
    for (const child of Array.from(node.childNodes)) walk(child);
    if (block) flush();
  };
  walk(root);
  flush();
  return paragraphs;
}
