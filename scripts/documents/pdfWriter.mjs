// A minimal PDF 1.4 writer: numbered objects, a page tree, an exact cross-reference table (ISO 32000-1, 7.5).
// Content streams are written uncompressed so the fixtures stay readable.

/** Escapes a PDF literal string (7.3.4.2). Bytes above 0x7e are written as octal escapes. */
export function pdfString(bytes) {
  let out = '(';
  for (const byte of bytes) {
    if (byte === 0x28 || byte === 0x29 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte < 0x20 || byte > 0x7e) out += `\\${byte.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(byte);
  }
  return `${out})`;
}

/**
 * Builds a PDF file.
 * @param {object} spec
 * @param {string[]} spec.pageContents one content stream per page
 * @param {Record<string, string>} [spec.fonts] resource name -> font dictionary source
 * @param {Record<string, {dict: string, stream: Buffer}>} [spec.xobjects] resource name -> image XObject
 * @param {[number, number]} [spec.mediaBox] default US Letter
 * @param {number} [spec.declaredCount] /Count written in the page tree instead of the real one
 * @param {string} [spec.trailerExtra] extra trailer entries (e.g. /Encrypt)
 * @param {Record<string, string>} [spec.info] document information dictionary
 * @param {boolean} [spec.shareContent] every page uses the first content stream (a tiny file with many pages)
 * @returns {Buffer}
 */
export function buildPdf(spec) {
  const objects = []; // index i holds object number i + 1
  const add = (source) => {
    objects.push(source);
    return objects.length;
  };
  const reserve = () => add(null);
  const catalog = reserve();
  const pagesRoot = reserve();
  const fontRefs = Object.entries(spec.fonts ?? {}).map(([name, dict]) => `/${name} ${add(dict)} 0 R`);
  const xobjectRefs = Object.entries(spec.xobjects ?? {}).map(([name, image]) => {
    const source = Buffer.concat([
      Buffer.from(`${image.dict.replace(/>>\s*$/, '')} /Length ${image.stream.length} >>\nstream\n`, 'latin1'),
      image.stream,
      Buffer.from('\nendstream', 'latin1'),
    ]);
    return `/${name} ${add(source)} 0 R`;
  });
  const resources = `${add(`<< /Font << ${fontRefs.join(' ')} >> /XObject << ${xobjectRefs.join(' ')} >> >>`)} 0 R`;
  const [width, height] = spec.mediaBox ?? [612, 792];
  const kids = [];
  let shared;
  for (const content of spec.pageContents) {
    let contentRef;
    if (spec.shareContent && shared !== undefined) contentRef = shared;
    else {
      const bytes = Buffer.from(content, 'latin1');
      contentRef = add(Buffer.concat([
        Buffer.from(`<< /Length ${bytes.length} >>\nstream\n`, 'latin1'), bytes, Buffer.from('\nendstream', 'latin1'),
      ]));
      shared = contentRef;
    }
    kids.push(add(`<< /Type /Page /Parent ${pagesRoot} 0 R /MediaBox [0 0 ${width} ${height}] /Resources ${resources} /Contents ${contentRef} 0 R >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesRoot} 0 R >>`;
  objects[pagesRoot - 1] = `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${spec.declaredCount ?? kids.length} >>`;
  const info = spec.info === undefined ? undefined
    : add(`<< ${Object.entries(spec.info).map(([key, value]) => `/${key} ${pdfString(Buffer.from(value, 'latin1'))}`).join(' ')} >>`);

  const chunks = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0].length;
  const offsets = [];
  objects.forEach((source, index) => {
    offsets.push(length);
    const body = Buffer.isBuffer(source) ? source : Buffer.from(source, 'latin1');
    const chunk = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    chunks.push(chunk);
    length += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n',
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`)].join('');
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${info ? ` /Info ${info} 0 R` : ''}${spec.trailerExtra ?? ''} >>\nstartxref\n${length}\n%%EOF\n`;
  chunks.push(Buffer.from(xref + trailer, 'latin1'));
  return Buffer.concat(chunks);
}
