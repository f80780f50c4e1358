// Builders of the attack shapes of issue 26: small on the wire, expensive once decoded or analysed. The fuzzer draws
// them as seeds (see seeds.mjs) and the test suite builds each one in the test that guards against it.
import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib';
import { writeZip } from '../../documents/zipWriter.mjs';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const CONTENT_TYPES = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

/**
 * A DOCX whose body is `paragraphs` one-letter paragraphs (`<w:p><w:r><w:t>a</w:t></w:r></w:p>`). At 1,500,000
 * it is the archive of issue 26 item 1: 149 KB on the wire, word/document.xml 51 MB.
 * @param {number} paragraphs
 * @returns {Buffer}
 */
export function manyParagraphDocx(paragraphs) {
  const body = '<w:p><w:r><w:t>a</w:t></w:r></w:p>'.repeat(paragraphs);
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`;
  return writeZip([
    { name: '[Content_Types].xml', data: CONTENT_TYPES },
    { name: '_rels/.rels', data: RELS },
    { name: 'word/document.xml', data: document },
  ]);
}

/**
 * A one-page PDF with one line of text whose content stream inflates to about `inflatedBytes` bytes of `filler`
 * operators (issue 26 item 6: 1 GiB inflated from 1 MB on the wire).
 * @param {number} inflatedBytes
 * @param {{ filler?: string, subtype?: string }} [options] `subtype` writes e.g. `/Subtype /Image` into the
 * content stream's dictionary, which pdf.js ignores for page contents.
 * @returns {Buffer}
 */
export function inflatingPdf(inflatedBytes, { filler = 'q Q\n', subtype } = {}) {
  // Built without holding the inflated bytes: one megabyte of filler deflated with a full flush (a segment that
  // needs nothing before it) is repeated, then a final empty block. The zlib checksum is left zero, as pdf.js does
  // not check it.
  const head = deflateRawSync(Buffer.from('BT /F1 12 Tf 72 720 Td (Hello world) Tj ET\n'), { finishFlush: constants.Z_FULL_FLUSH });
  const chunk = Buffer.from(filler.repeat(Math.ceil((1 << 20) / filler.length)));
  const segment = deflateRawSync(chunk, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const parts = [Buffer.from([0x78, 0xda]), head];
  for (let size = 0; size < inflatedBytes; size += chunk.length) parts.push(segment);
  parts.push(Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff, 0, 0, 0, 0]));
  const packed = Buffer.concat(parts);
  const extra = subtype === undefined ? '' : ` /Subtype /${subtype} /Width 16384 /Height 16384 /BitsPerComponent 8 /ColorSpace /DeviceRGB`;
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>'),
    Buffer.concat([Buffer.from(`<< /Length ${packed.length} /Filter /FlateDecode${extra} >>\nstream\n`), packed, Buffer.from('\nendstream')]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ];
  const out = [Buffer.from('%PDF-1.4\n')];
  const offsets = [];
  let position = out[0].length;
  objects.forEach((body, index) => {
    offsets.push(position);
    const piece = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    out.push(piece);
    position += piece.length;
  });
  const rows = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  out.push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${position}\n%%EOF\n`));
  return Buffer.concat(out);
}

/**
 * A grey PNG of `width` x `height` pixels, all one value: 7000 x 7000 is 143 KB on the wire and 49 million pixels
 * once decoded (issue 26 item 7).
 * @param {number} width
 * @param {number} height
 * @returns {Buffer}
 */
export function pixelHeavyPng(width, height) {
  const row = Buffer.alloc(width + 1, 0x80);
  row[0] = 0; // filter: none
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y += 1) row.copy(raw, y * row.length);
  return greyPng(width, height, deflateSync(raw, { level: 9 }));
}

/**
 * A greyscale 8-bit PNG of `width` x `height` around one IDAT holding `idat` (a zlib stream of the filtered rows,
 * or anything an attack wants a decoder to inflate).
 * @param {number} width
 * @param {number} height
 * @param {Buffer} idat
 * @returns {Buffer}
 */
export function greyPng(width, height, idat) {
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Text made of one long token without vowels, `1,1,1,...` (issue 26 item 4: 120,000 characters of it kept the
 * Porter stemmer's `/[^aeiouy]+y/g` busy for 42 s), after `prefix` (real words, so the request is valid).
 * @param {number} length characters of the token
 * @param {string} [prefix]
 * @returns {string}
 */
export function vowellessToken(length, prefix = '') {
  return prefix + '1,'.repeat(Math.ceil(length / 2)).slice(0, length);
}

/**
 * `text` with the spaces between its words replaced by `joiner` (`.`, `_`, `:` or `'`), which made a word counter
 * following UAX #29 see one word where the detector reads many (issue 26 item 5).
 * @param {string} text
 * @param {string} joiner
 * @returns {string}
 */
export function joinedWords(text, joiner) {
  return text.replace(/[ \t]+/g, joiner);
}
