import { describe, expect, it } from 'vitest';
import { dropRunningLines } from '../src/pdf/dropRunningLines.js';
import { groupLines } from '../src/pdf/groupLines.js';
import type { PdfLine } from '../src/pdf/pdfTypes.js';
import { findGutter, readingOrder } from '../src/pdf/readingOrder.js';

const line = (text: string, x0: number, y: number, x1 = x0 + 200): PdfLine => ({ text, x0, x1, y, fontSize: 10 });

describe('groupLines', () => {
  it('splits one baseline at a column gap and joins close runs with a space', () => {
    const lines = groupLines([
      { text: 'left', x: 50, y: 700, width: 20, fontSize: 10 },
      { text: 'half', x: 72, y: 700.5, width: 20, fontSize: 10 },
      { text: 'right', x: 300, y: 700, width: 25, fontSize: 10 },
    ]);
    expect(lines.map((item) => item.text)).toEqual(['left half', 'right']);
  });
});

describe('readingOrder', () => {
  it('reads a title, then the left column, then the right column', () => {
    const lines = [line('Title', 100, 760, 400)];
    for (let row = 0; row < 4; row += 1) lines.push(line(`L${row}`, 50, 700 - 12 * row), line(`R${row}`, 280, 700 - 12 * row));
    expect(findGutter(lines)).toBeGreaterThan(250);
    expect(findGutter(lines)).toBeLessThan(280);
    expect(readingOrder(lines).map((stream) => stream.map((item) => item.text).join(' '))).toEqual(['Title', 'L0 L1 L2 L3', 'R0 R1 R2 R3']);
  });

  it('keeps a single column as one stream', () => {
    const lines = [0, 1, 2, 3, 4, 5, 6].map((row) => line(`row ${row}`, 50, 700 - 12 * row, 500));
    expect(findGutter(lines)).toBeUndefined();
    expect(readingOrder(lines)).toHaveLength(1);
  });
});

describe('dropRunningLines', () => {
  it('drops a header repeated on every page and page numbers, keeps body lines', () => {
    const pages = [1, 2, 3].map((number) => ({
      number, width: 600, height: 800,
      lines: [line('Annual Report 2024', 50, 770), line(`Body of page ${number}`, 50, 600), line('More body', 50, 588), line(String(number), 300, 30)],
    }));
    expect(dropRunningLines(pages).map((page) => page.lines.map((item) => item.text))).toEqual([
      ['Body of page 1', 'More body'], ['Body of page 2', 'More body'], ['Body of page 3', 'More body'],
    ]);
  });
});
