const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text as HTML that shows it literally, in element content and in quoted attribute values alike. Every string of a
 * report that came from the image (EXIF, XMP, C2PA, titles) or from a caller goes through here: an image's
 * description can hold `<script>`.
 */
export function escapeHtml(text: string): string {
  // C0 controls other than tab, line feed and carriage return are not allowed in HTML text; shown as U+FFFD.
  return String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '\ufffd');
}
