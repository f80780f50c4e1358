/** Content types the fetcher can recognise from the bytes, usable in the `accept` option. */
export const SNIFFABLE_CONTENT_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'application/pdf',
  'application/zip',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/msword',
  'text/html',
  'text/plain',
] as const;

/** One of {@link SNIFFABLE_CONTENT_TYPES}. */
export type SniffableContentType = (typeof SNIFFABLE_CONTENT_TYPES)[number];

/** Content type of a body whose bytes match no known signature and do not look like text. */
export const UNKNOWN_CONTENT_TYPE = 'application/octet-stream';

export const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

// Declared types that say nothing about the bytes: the bytes decide.
const GENERIC_TYPES = new Set([
  '',
  'application/octet-stream',
  'binary/octet-stream',
  'application/binary',
  'application/unknown',
  'application/x-download',
  'application/force-download',
  'unknown/unknown',
]);

const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'application/x-pdf': 'application/pdf',
  'application/x-zip-compressed': 'application/zip',
  'application/vnd.ms-word': 'application/msword',
  'application/xhtml+xml': 'text/html',
};

/** Lowercased MIME essence of a Content-Type header (`Image/PNG; q=1` gives `image/png`), aliases folded. */
export function contentTypeEssence(header: string | undefined): string {
  const essence = (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return ALIASES[essence] ?? essence;
}

/** True when a declared type gives no information about the bytes. */
export function isGenericContentType(essence: string): boolean {
  return GENERIC_TYPES.has(essence);
}

/** True for the text kinds, which bytes alone cannot tell apart reliably. */
export function isTextContentType(essence: string): boolean {
  return essence.startsWith('text/');
}

/** True when `value` is one of {@link SNIFFABLE_CONTENT_TYPES}. */
export function isSniffableContentType(value: string): value is SniffableContentType {
  return (SNIFFABLE_CONTENT_TYPES as readonly string[]).includes(value);
}
