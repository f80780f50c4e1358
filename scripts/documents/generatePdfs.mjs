// Generates the PDF fixtures of fixtures/documents: each document with the text a reader sees (expected .txt), and
// the hostile PDFs (scanned, encrypted, corrupt, huge page count). Run: `node scripts/documents/generate.mjs`.
import { randomBytes } from 'node:crypto';
import { buildPdf } from './pdfWriter.mjs';
import { BODY_FONT, HEAD_FONT, layoutDocument } from './layout.mjs';
import { MARSH, MARSH_BYLINE, MARSH_TITLE, WATER, WATER_TITLE } from './texts.mjs';

const FONTS = { F1: BODY_FONT, F2: HEAD_FONT };

/** @returns {Record<string, Buffer | string>} file name (relative to fixtures/documents) -> content */
export function generatePdfs() {
  const files = {};

  // Two columns under a spanning title, running head and folio on every page, hyphenation, fi/fl ligatures.
  const twoColumn = layoutDocument({
    pageSize: [480, 560], margin: 50, columns: 2, gutter: 20, fontSize: 10, leading: 12.5, paragraphGap: 7,
    indent: 0, titleLines: [MARSH_TITLE, MARSH_BYLINE], paragraphs: MARSH,
    header: () => 'Journal of Coastal Studies, Volume 12',
    footer: (page, pages) => `Page ${page} of ${pages}`,
  });
  files['two-column.pdf'] = buildPdf({ pageContents: twoColumn, fonts: FONTS, mediaBox: [480, 560], info: { Title: MARSH_TITLE } });
  files['two-column.txt'] = `${[MARSH_TITLE, MARSH_BYLINE, ...MARSH].join('\n\n')}\n`;

  // One column on A5, paragraphs marked by indentation only, running head and page numbers on every page.
  const report = layoutDocument({
    pageSize: [420, 595], margin: 50, columns: 1, gutter: 0, fontSize: 11, leading: 14, paragraphGap: 0,
    indent: 18, titleLines: [WATER_TITLE], paragraphs: WATER,
    header: () => 'District Water Board - Annual Report',
    footer: (page) => `- ${page} -`,
  });
  files['running-headers.pdf'] = buildPdf({ pageContents: report, fonts: FONTS, mediaBox: [420, 595] });
  files['running-headers.txt'] = `${[WATER_TITLE, ...WATER].join('\n\n')}\n`;

  // A scan: one page that only paints an image, no text layer.
  const pixels = Buffer.alloc(64 * 64);
  for (let index = 0; index < pixels.length; index += 1) pixels[index] = (index * 37) % 256;
  files['hostile/scanned.pdf'] = buildPdf({
    pageContents: ['q 400 0 0 500 100 150 cm /Im1 Do Q'],
    xobjects: { Im1: { dict: '<< /Type /XObject /Subtype /Image /Width 64 /Height 64 /ColorSpace /DeviceGray /BitsPerComponent 8 >>', stream: pixels } },
  });

  // Encrypted with a user password (standard security handler, revision 2): opening needs the password.
  const hex = (bytes) => `<${bytes.toString('hex')}>`;
  files['hostile/encrypted.pdf'] = buildPdf({
    pageContents: ['BT /F1 12 Tf 72 700 Td (secret) Tj ET'], fonts: FONTS,
    trailerExtra: ` /Encrypt << /Filter /Standard /V 1 /R 2 /Length 40 /O ${hex(randomBytes(32))} /U ${hex(randomBytes(32))} /P -44 >> /ID [${hex(randomBytes(16))} ${hex(randomBytes(16))}]`,
  });

  // A PDF header followed by noise: no objects, no cross-reference table.
  files['hostile/corrupt.pdf'] = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(4096)]);

  // 2,000 real page objects sharing one content stream (about 150 kB): above any sane page limit.
  files['hostile/many-pages.pdf'] = buildPdf({
    pageContents: Array.from({ length: 2_000 }, () => 'BT /F1 12 Tf 72 700 Td (page) Tj ET'), fonts: FONTS, shareContent: true,
  });
  // Two pages whose page tree claims a million.
  files['hostile/huge-page-count.pdf'] = buildPdf({
    pageContents: ['BT /F1 12 Tf 72 700 Td (one) Tj ET', 'BT /F1 12 Tf 72 700 Td (two) Tj ET'], fonts: FONTS,
    declaredCount: 1_000_000,
  });
  return files;
}
