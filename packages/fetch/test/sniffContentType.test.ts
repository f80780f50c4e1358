import { describe, expect, it } from 'vitest';
import { sniffContentType } from '../src/index.js';

const bytes = (...parts: Array<string | number[]>): Uint8Array =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

describe('sniffContentType', () => {
  it.each([
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF')],
    ['image/png', bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13], 'IHDR')],
    ['image/webp', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ')],
    ['image/gif', bytes('GIF89a', [1, 0, 1, 0])],
    ['image/gif', bytes('GIF87a', [1, 0, 1, 0])],
    ['application/pdf', bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')],
    ['application/msword', bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0])],
    ['application/zip', bytes('PK\x03\x04', [20, 0, 0, 0], 'content.xml')],
    [
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      bytes('PK\x03\x04', [20, 0, 0, 0], '[Content_Types].xml', 'PK\x03\x04', 'word/document.xml'),
    ],
  ])('recognises %s by its signature', (type, body) => {
    expect(sniffContentType(body)).toBe(type);
  });

  it('does not take a RIFF file other than WEBP for an image', () => {
    expect(sniffContentType(bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt ', [0x10, 0, 0, 0, 1, 0]))).toBeUndefined();
  });

  it.each([
    ['a doctype', '<!DOCTYPE html><html></html>'],
    ['a lowercase doctype after whitespace', '\n\t  <!doctype html>\n<html>'],
    ['an html tag after a BOM', '\ufeff<HTML lang="en">'],
    ['a head tag', '<head><title>x</title></head>'],
    ['a body tag', '<BODY>hello</BODY>'],
    ['a comment', '<!-- generated --><html>'],
  ])('recognises HTML starting with %s', (_name, text) => {
    expect(sniffContentType(Buffer.from(text))).toBe('text/html');
  });

  it('requires a tag-terminating byte after an HTML tag name', () => {
    expect(sniffContentType(Buffer.from('<htmlx>'))).toBe('text/plain');
  });

  it('falls back to plain text for text without a known signature', () => {
    expect(sniffContentType(Buffer.from('Just some words, café.\r\n'))).toBe('text/plain');
  });

  it('recognises nothing in binary data without a signature', () => {
    expect(sniffContentType(bytes([0x00, 0x01, 0x02, 0x03, 0x7f]))).toBeUndefined();
  });

  it('recognises nothing in an empty body', () => {
    expect(sniffContentType(new Uint8Array(0))).toBeUndefined();
  });

  it('does not take a truncated signature for the format', () => {
    expect(sniffContentType(bytes([0x89], 'PNG\r\n'))).not.toBe('image/png');
  });
});
