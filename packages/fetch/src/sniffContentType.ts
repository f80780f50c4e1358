import { DOCX } from './contentTypes.js';
import type { SniffableContentType } from './contentTypes.js';

type Signature = { type: SniffableContentType; offset: number; bytes: readonly number[] };

const ascii = (text: string): number[] => Array.from(text, (char) => char.charCodeAt(0));

// Magic numbers, after the WHATWG MIME Sniffing standard (image and archive type patterns).
const SIGNATURES: readonly Signature[] = [
  { type: 'image/jpeg', offset: 0, bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/png', offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/gif', offset: 0, bytes: ascii('GIF87a') },
  { type: 'image/gif', offset: 0, bytes: ascii('GIF89a') },
  { type: 'application/pdf', offset: 0, bytes: ascii('%PDF-') },
  { type: 'application/msword', offset: 0, bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] },
];

const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');
const ZIP_LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04];
const WORD_ENTRY = Buffer.from('word/');

// WHATWG "HTML" patterns: a tag name followed by a tag-terminating byte (space or >).
const HTML_TAGS = ['!doctype html', 'html', 'head', 'script', 'iframe', 'h1', 'div', 'font', 'table', 'a', 'style',
  'title', 'b', 'body', 'br', 'p'].map((tag) => ascii(`<${tag}`));
const HTML_COMMENT = ascii('<!--');
const WHITESPACE = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const TEXT_BOMS = [[0xef, 0xbb, 0xbf], [0xfe, 0xff], [0xff, 0xfe]];
const TEXT_SAMPLE = 1445;

/**
 * Content type recognised from the bytes alone: JPEG, PNG, WEBP, GIF, PDF, ZIP (DOCX when it holds a
 * `word/` entry), OLE2 (reported as `application/msword`), HTML (a leading tag after whitespace or a
 * BOM), and `text/plain` for bytes without binary control characters. Undefined when nothing matches.
 */
export function sniffContentType(bytes: Uint8Array): SniffableContentType | undefined {
  if (bytes.length === 0) return undefined;
  for (const signature of SIGNATURES) {
    if (startsWith(bytes, signature.bytes, signature.offset)) return signature.type;
  }
  if (startsWith(bytes, RIFF, 0) && startsWith(bytes, WEBP, 8)) return 'image/webp';
  if (startsWith(bytes, ZIP_LOCAL_HEADER, 0)) {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(WORD_ENTRY)
      ? DOCX
      : 'application/zip';
  }
  if (looksLikeHtml(bytes)) return 'text/html';
  if (looksLikeText(bytes)) return 'text/plain';
  return undefined;
}

function startsWith(bytes: Uint8Array, pattern: readonly number[], offset: number): boolean {
  if (bytes.length < offset + pattern.length) return false;
  return pattern.every((byte, index) => bytes[offset + index] === byte);
}

function looksLikeHtml(bytes: Uint8Array): boolean {
  let start = startsWith(bytes, [0xef, 0xbb, 0xbf], 0) ? 3 : 0;
  while (start < bytes.length && WHITESPACE.has(bytes[start] ?? 0)) start += 1;
  if (startsWith(bytes, HTML_COMMENT, start)) return true;
  return HTML_TAGS.some((tag) => {
    if (!startsWithIgnoringCase(bytes, tag, start)) return false;
    const next = bytes[start + tag.length];
    return next === 0x20 || next === 0x3e || (next !== undefined && WHITESPACE.has(next));
  });
}

function startsWithIgnoringCase(bytes: Uint8Array, pattern: readonly number[], offset: number): boolean {
  if (bytes.length < offset + pattern.length) return false;
  return pattern.every((byte, index) => lowerAscii(bytes[offset + index] ?? 0) === byte);
}

function lowerAscii(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
}

// WHATWG "binary data byte": control characters other than tab, newlines, form feed and escape.
function looksLikeText(bytes: Uint8Array): boolean {
  if (TEXT_BOMS.some((bom) => startsWith(bytes, bom, 0))) return true;
  const end = Math.min(bytes.length, TEXT_SAMPLE);
  for (let index = 0; index < end; index += 1) {
    const byte = bytes[index] ?? 0;
    if (byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f)) {
      return false;
    }
  }
  return true;
}
