/**
 * Decodes HTML bytes to a string: a byte order mark wins, then the `charset` of the Content-Type header, then a
 * `<meta charset>` or `<meta http-equiv content="...charset=...">` in the first 1024 bytes, then UTF-8
 * (after the WHATWG encoding sniffing algorithm, simplified). Unknown labels fall back to UTF-8.
 */
export function decodeHtml(bytes: Uint8Array, contentTypeHeader?: string): string {
  const label = bomEncoding(bytes) ?? charsetOf(contentTypeHeader) ?? metaCharset(bytes) ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

function charsetOf(header: string | undefined): string | undefined {
  return /charset\s*=\s*["']?([\w.:-]+)/i.exec(header ?? '')?.[1];
}

function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
}
