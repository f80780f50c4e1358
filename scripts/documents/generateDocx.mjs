// Generates the DOCX fixtures: a document with headings, a table and footnotes (and its expected text), and two zip
// bombs: one that declares its huge size honestly, one whose headers claim a tiny size.
import { writeZip } from './zipWriter.mjs';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A run list: strings are text runs, {footnote: n} a footnote reference, {bold: text} a bold run. */
const runs = (parts) => parts.map((part) => {
  if (typeof part === 'string') return `<w:r><w:t xml:space="preserve">${escape(part)}</w:t></w:r>`;
  if ('footnote' in part) return `<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="${part.footnote}"/></w:r>`;
  return `<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${escape(part.bold)}</w:t></w:r>`;
}).join('');
const paragraph = (parts, style) => `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}${runs(parts)}</w:p>`;
const table = (rows) => `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr>${rows.map((row) =>
  `<w:tr>${row.map((cell) => `<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>${paragraph([cell])}</w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`;

const TITLE = 'Keeping Bees on City Rooftops';
const HEADING = 'What the inspections showed';
const BODY_1 = ['Rooftop hives have become common in many cities over the last decade. They are easy to reach for staff, out of the way of the public and often surrounded by parks and gardens that flower from early spring until autumn.', { footnote: 1 }, ' This guide summarises what we learned from two seasons of keeping six colonies on the roof of the municipal library.'];
const BODY_2 = ['The colonies were inspected every nine days from April to September. At each visit we recorded the number of frames covered by bees, the presence of eggs and the amount of stored honey. The table below gives the figures for the last inspection of the second season.'];
const ROWS = [['Hive', 'Frames of bees', 'Eggs seen', 'Honey (kg)'], ['North 1', '14', 'yes', '21'], ['North 2', '11', 'yes', '16'], ['South 1', '9', 'no', '12']];
const BODY_3 = ['Wind was the main difficulty. Colonies on the exposed northern edge of the roof built up more slowly in spring, although they caught up by midsummer.', { footnote: 2 }, ' A simple windbreak of wooden slats made a visible difference within a few weeks.'];
const BODY_4 = [{ bold: 'Recommendation:' }, ' place hives where they are sheltered from the prevailing wind, provide a shallow water source on the roof and agree an inspection schedule with the building managers before the first colony arrives.'];
const NOTES = {
  1: 'Flowering periods were taken from the city parks department planting records.',
  2: 'Frame counts are rounded to whole frames; half-covered frames were counted as covered.',
};

const text = (parts) => parts.map((part) => (typeof part === 'string' ? part : 'footnote' in part ? `[${part.footnote}]` : part.bold)).join('');

function docx(bodyXml, footnotes) {
  const footnoteXml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes ${W}>`
    + '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
    + '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>'
    + Object.entries(footnotes).map(([id, note]) => `<w:footnote w:id="${id}"><w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> ${escape(note)}</w:t></w:r></w:p></w:footnote>`).join('')
    + '</w:footnotes>';
  const styles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles ${W}>`
    + '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
    + '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>'
    + '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>'
    + '<w:style w:type="paragraph" w:styleId="FootnoteText"><w:name w:val="footnote text"/></w:style>'
    + '<w:style w:type="character" w:styleId="FootnoteReference"><w:name w:val="footnote reference"/></w:style>'
    + '</w:styles>';
  return writeZip([
    { name: '[Content_Types].xml', data: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>' },
    { name: '_rels/.rels', data: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>' },
    { name: 'docProps/core.xml', data: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Keeping Bees on City Rooftops</dc:title><dc:creator>Maren Stolz</dc:creator></cp:coreProperties>' },
    { name: 'word/_rels/document.xml.rels', data: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/></Relationships>' },
    { name: 'word/document.xml', data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>${bodyXml}<w:sectPr/></w:body></w:document>` },
    { name: 'word/styles.xml', data: styles },
    { name: 'word/footnotes.xml', data: footnoteXml },
  ]);
}

/** @returns {Record<string, Buffer | string>} */
export function generateDocx() {
  const body = [
    paragraph([TITLE], 'Title'), paragraph(BODY_1), paragraph([HEADING], 'Heading1'), paragraph(BODY_2),
    table(ROWS), paragraph(BODY_3), paragraph(BODY_4),
  ].join('');
  const expected = [TITLE, text(BODY_1), HEADING, text(BODY_2), ...ROWS.map((row) => row.join('\t')), text(BODY_3),
    text(BODY_4), ...Object.entries(NOTES).map(([id, note]) => `[${id}] ${note}`)];

  const files = {};
  files['tables-footnotes.docx'] = docx(body, NOTES);
  files['tables-footnotes.txt'] = `${expected.join('\n\n')}\n`;

  // Zip bombs: a document.xml padded with 160 MiB of spaces inside one paragraph (about 160 kB deflated).
  const padding = Buffer.alloc(160 * 1024 * 1024, 0x20);
  const bombXml = Buffer.concat([
    Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body><w:p><w:r><w:t>boom</w:t></w:r></w:p>`),
    padding, Buffer.from('</w:body></w:document>'),
  ]);
  const bombEntries = (declaredSize) => [
    { name: '[Content_Types].xml', data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
    { name: 'word/document.xml', data: bombXml, declaredSize },
  ];
  files['hostile/zip-bomb.docx'] = writeZip(bombEntries());
  files['hostile/zip-bomb-lying.docx'] = writeZip(bombEntries(4096));
  return files;
}
