// Lays paragraphs out into PDF pages the way a typesetter would: one or two columns, a title block spanning the
// columns, running headers and footers, words hyphenated at line ends and "fi"/"fl" set as ligature glyphs.
import { pdfString } from './pdfWriter.mjs';

// Advance widths of Times-Roman (Adobe Core 14 AFM, per 1000 em) for the characters the fixtures use; others 500.
const TIMES = {
  ' ': 250, a: 444, b: 500, c: 444, d: 500, e: 444, f: 333, g: 500, h: 500, i: 278, j: 278, k: 500, l: 278, m: 778,
  n: 500, o: 500, p: 500, q: 500, r: 333, s: 389, t: 278, u: 500, v: 500, w: 722, x: 500, y: 500, z: 444,
  A: 722, B: 667, C: 667, D: 722, E: 611, F: 556, G: 722, H: 722, I: 333, J: 389, K: 722, L: 611, M: 889, N: 722,
  O: 722, P: 556, Q: 722, R: 667, S: 556, T: 611, U: 722, V: 722, W: 944, X: 722, Y: 722, Z: 611,
  '.': 250, ',': 250, '-': 333, ':': 278, ';': 278, "'": 333, '"': 444, '(': 333, ')': 333, '%': 833, '?': 444,
  '\x01': 556, '\x02': 556,
};

/** Body font: Times-Roman whose codes 1 and 2 draw the fi and fl ligature glyphs. */
export const BODY_FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [1 /fi 2 /fl] >> >>';
/** Title and running-head font. */
export const HEAD_FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';

/** Text to font codes: ASCII as is, fi and fl as the ligature codes when asked. */
function encode(text, ligatures) {
  const withLigatures = ligatures ? text.replaceAll('fi', '\x01').replaceAll('fl', '\x02') : text;
  return Buffer.from(withLigatures, 'latin1');
}

function width(text, size, ligatures) {
  let units = 0;
  for (const byte of encode(text, ligatures)) units += TIMES[String.fromCharCode(byte)] ?? 500;
  return (units * size) / 1000;
}

/** Greedy line breaking; a long plain word that does not fit is hyphenated if both halves keep 3 letters. */
export function wrap(paragraph, maxWidth, size, ligatures, firstIndent = 0) {
  const lines = [];
  let line = '';
  let limit = maxWidth - firstIndent;
  const fits = (candidate) => width(candidate, size, ligatures) <= limit;
  const push = () => {
    lines.push(line);
    line = '';
    limit = maxWidth;
  };
  for (const word of paragraph.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    const letters = /^[a-z]+/.exec(word)?.[0] ?? '';
    let split = -1;
    if (letters.length >= 7 && !word.includes('-')) {
      for (let cut = letters.length - 3; cut >= 3; cut -= 1) {
        if (fits(`${line === '' ? '' : `${line} `}${word.slice(0, cut)}-`)) {
          split = cut;
          break;
        }
      }
    }
    if (split > 0) {
      line = `${line === '' ? '' : `${line} `}${word.slice(0, split)}-`;
      push();
      line = word.slice(split);
    } else {
      if (line !== '') push();
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * Lays a document out and returns one content stream per page.
 * @param {object} doc
 * @param {[number, number]} doc.pageSize
 * @param {number} doc.margin
 * @param {1 | 2} doc.columns
 * @param {number} doc.gutter
 * @param {number} doc.fontSize
 * @param {number} doc.leading
 * @param {number} doc.paragraphGap extra space between paragraphs
 * @param {number} doc.indent first-line indent
 * @param {string[]} doc.titleLines spanning lines at the top of page 1 (18 pt and 11 pt)
 * @param {string[]} doc.paragraphs body
 * @param {(page: number, pages: number) => string} [doc.header]
 * @param {(page: number, pages: number) => string} [doc.footer]
 */
export function layoutDocument(doc) {
  const [pageWidth, pageHeight] = doc.pageSize;
  const columnWidth = (pageWidth - 2 * doc.margin - (doc.columns - 1) * doc.gutter) / doc.columns;
  const pages = [];
  let page;
  let column = 0;
  let y = 0;
  const bottom = doc.margin;
  const newPage = () => {
    page = [];
    pages.push(page);
    column = 0;
    y = pageHeight - doc.margin;
  };
  newPage();
  doc.titleLines.forEach((title, index) => {
    const size = index === 0 ? 18 : 11;
    y -= size + 6;
    const x = (pageWidth - width(title, size, false) * 1.1) / 2;
    page.push(`BT /F2 ${size} Tf 1 0 0 1 ${x.toFixed(2)} ${y.toFixed(2)} Tm ${pdfString(encode(title, false))} Tj ET`);
  });
  if (doc.titleLines.length > 0) y -= 18;
  const top = () => (pages.length === 1 && doc.titleLines.length > 0 ? firstTop : pageHeight - doc.margin);
  const firstTop = y;
  let firstInFrame = true;
  for (const paragraph of doc.paragraphs) {
    const lines = wrap(paragraph, columnWidth, doc.fontSize, true, doc.indent);
    if (!firstInFrame) y -= doc.paragraphGap;
    lines.forEach((line, index) => {
      if (y - doc.leading < bottom) {
        if (column + 1 < doc.columns) column += 1;
        else newPage();
        y = top();
      }
      y -= doc.leading;
      const x = doc.margin + column * (columnWidth + doc.gutter) + (index === 0 ? doc.indent : 0);
      page.push(`BT /F1 ${doc.fontSize} Tf 1 0 0 1 ${x.toFixed(2)} ${y.toFixed(2)} Tm ${pdfString(encode(line, true))} Tj ET`);
      firstInFrame = false;
    });
  }
  return pages.map((lines, index) => {
    const extra = [];
    if (doc.header) extra.push(`BT /F2 9 Tf 1 0 0 1 ${doc.margin} ${pageHeight - doc.margin / 2} Tm ${pdfString(encode(doc.header(index + 1, pages.length), false))} Tj ET`);
    if (doc.footer) extra.push(`BT /F2 9 Tf 1 0 0 1 ${pageWidth / 2 - 20} ${doc.margin / 2} Tm ${pdfString(encode(doc.footer(index + 1, pages.length), false))} Tj ET`);
    return [...extra, ...lines].join('\n');
  });
}
