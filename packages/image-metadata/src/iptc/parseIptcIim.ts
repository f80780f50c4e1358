import { withoutTrailingNuls } from '../metadata/withoutTrailingNuls.js';
/**
 * IPTC-IIM (record 2) datasets from a Photoshop image resource block (JPEG APP13 "Photoshop 3.0", resource 0x0404)
 * or from a bare IIM stream. Repeatable datasets (keywords, by-line...) become arrays. Text is UTF-8 when the
 * envelope says so (1:90 = ESC % G), Latin-1 otherwise.
 */

/** IIM record 2 dataset numbers and the names used here (those of exiftool / the IIM spec). */
const DATASETS: Record<number, string> = {
  4: 'ObjectAttributeReference', 5: 'ObjectName', 10: 'Urgency', 12: 'SubjectReference', 15: 'Category',
  20: 'SupplementalCategories', 22: 'FixtureIdentifier', 25: 'Keywords', 26: 'ContentLocationCode',
  27: 'ContentLocationName', 40: 'SpecialInstructions', 55: 'DateCreated', 60: 'TimeCreated',
  62: 'DigitalCreationDate', 63: 'DigitalCreationTime', 65: 'OriginatingProgram', 70: 'ProgramVersion',
  80: 'By-line', 85: 'By-lineTitle', 90: 'City', 92: 'Sub-location', 95: 'Province-State',
  100: 'Country-PrimaryLocationCode', 101: 'Country-PrimaryLocationName', 103: 'OriginalTransmissionReference',
  105: 'Headline', 110: 'Credit', 115: 'Source', 116: 'CopyrightNotice', 118: 'Contact', 120: 'Caption-Abstract',
  122: 'Writer-Editor', 135: 'LanguageIdentifier',
};

const REPEATABLE = new Set([4, 12, 20, 25, 26, 27, 80, 85, 118, 122]);

/** IIM fields by name; repeatable ones are arrays. */
export type IptcFields = Record<string, string | string[]>;

/** Parses IIM datasets; tolerant of garbage (stops at the first byte that is not a tag marker). */
export function parseIptcIim(block: Uint8Array): IptcFields {
  const iim = findIimStream(block);
  const out: IptcFields = {};
  let utf8 = false;
  let offset = 0;
  while (offset + 5 <= iim.length && iim[offset] === 0x1c) {
    const record = iim[offset + 1]!;
    const dataset = iim[offset + 2]!;
    let length = (iim[offset + 3]! << 8) | iim[offset + 4]!;
    let start = offset + 5;
    if (length & 0x8000) {
      // Extended dataset: the low bits give how many bytes hold the length.
      const n = length & 0x7fff;
      length = 0;
      for (let i = 0; i < n; i++) length = length * 256 + (iim[start + i] ?? 0);
      start += n;
    }
    const end = Math.min(start + length, iim.length);
    const data = iim.subarray(start, end);
    if (record === 1 && dataset === 90) utf8 = data.length >= 3 && data[0] === 0x1b && data[1] === 0x25 && data[2] === 0x47;
    if (record === 2) {
      const name = DATASETS[dataset];
      if (name) {
        const text = withoutTrailingNuls(decode(data, utf8)).trim();
        if (REPEATABLE.has(dataset)) {
          const previous = out[name];
          out[name] = Array.isArray(previous) ? [...previous, text] : [text];
        } else out[name] = text;
      }
    }
    offset = end;
  }
  return out;
}

function findIimStream(block: Uint8Array): Uint8Array {
  // Photoshop IRB: "8BIM" type(2) name(pascal, padded even) size(4) data(padded even).
  let offset = startsWithAscii(block, 0, 'Photoshop 3.0\0') ? 14 : 0;
  if (!startsWithAscii(block, offset, '8BIM')) return block;
  while (offset + 12 <= block.length && startsWithAscii(block, offset, '8BIM')) {
    const id = (block[offset + 4]! << 8) | block[offset + 5]!;
    const nameLength = block[offset + 6]!;
    let p = offset + 6 + 1 + nameLength;
    if ((1 + nameLength) % 2 === 1) p += 1;
    if (p + 4 > block.length) break;
    const size = ((block[p]! << 24) | (block[p + 1]! << 16) | (block[p + 2]! << 8) | block[p + 3]!) >>> 0;
    const dataStart = p + 4;
    if (id === 0x0404) return block.subarray(dataStart, Math.min(dataStart + size, block.length));
    offset = dataStart + size + (size % 2);
  }
  return new Uint8Array(0);
}

function startsWithAscii(bytes: Uint8Array, offset: number, text: string): boolean {
  if (offset + text.length > bytes.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[offset + i] !== text.charCodeAt(i)) return false;
  return true;
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const latin1Decoder = new TextDecoder('latin1');

function decode(data: Uint8Array, utf8: boolean): string {
  if (utf8) return new TextDecoder('utf-8').decode(data);
  try {
    // Many writers store UTF-8 without the envelope marker; valid UTF-8 is taken as such, as exiftool does.
    return utf8Decoder.decode(data);
  } catch {
    return latin1Decoder.decode(data);
  }
}
