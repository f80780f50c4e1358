import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { readJpegHeader } from '../src/input/readJpegHeader.js';
import { DATASETS } from './datasets.js';

// The JavaScript header reader stands in for sharp's metadata() on JPEGs: wherever it answers, every field
// extractImageMetadata reads must be what sharp (libvips 8.18) says; where sharp fails, it must not answer.

const FIELDS = [
  'format', 'size', 'width', 'height', 'space', 'channels', 'depth', 'density', 'chromaSubsampling', 'isProgressive',
  'isPalette', 'hasProfile', 'hasAlpha', 'orientation', 'autoOrient', 'resolutionUnit', 'bitsPerSample', 'pages',
  'pageHeight', 'loop', 'delay', 'pagePrimary', 'background', 'levels', 'subifds', 'formatMagick', 'comments',
] as const;
const BLOCKS = ['exif', 'iptc', 'xmp'] as const;

function fieldsOf(meta: Metadata): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of FIELDS) if (meta[key] !== undefined) out[key] = meta[key];
  for (const key of BLOCKS) if (meta[key] !== undefined) out[key] = Buffer.from(meta[key]).toString('hex');
  return out;
}

/** 'fast' when the reader answered (and agreed with sharp), 'sharp' when it left the file to sharp. */
async function compareWithSharp(bytes: Uint8Array): Promise<'fast' | 'sharp'> {
  const header = readJpegHeader(bytes);
  let expected: Metadata;
  try {
    expected = await sharp(bytes).metadata();
  } catch (error) {
    expect(header, `sharp refuses this file (${(error as Error).message}) but the reader answered`).toBeUndefined();
    return 'sharp';
  }
  if (header === undefined) return 'sharp';
  expect(fieldsOf(header.meta)).toEqual(fieldsOf(expected));
  return 'fast';
}

interface Segment { marker: number; data: Buffer }

/** The segments before the first scan, and the bytes from the scan on. */
function split(jpeg: Buffer): { segments: Segment[]; rest: Buffer } {
  const segments: Segment[] = [];
  let offset = 2;
  for (;;) {
    const marker = jpeg[offset + 1]!;
    if (marker === 0xda) return { segments, rest: jpeg.subarray(offset) };
    const length = jpeg.readUInt16BE(offset + 2);
    segments.push({ marker, data: jpeg.subarray(offset + 4, offset + 2 + length) });
    offset += 2 + length;
  }
}

function assemble(segments: Segment[], rest: Buffer): Buffer {
  const parts: Buffer[] = [Buffer.from([0xff, 0xd8])];
  for (const { marker, data } of segments) {
    const head = Buffer.from([0xff, marker, 0, 0]);
    head.writeUInt16BE(data.length + 2, 2);
    parts.push(head, data);
  }
  parts.push(rest);
  return Buffer.concat(parts);
}

/** A JPEG with `edit` applied to its header segments. */
function edited(jpeg: Buffer, edit: (segments: Segment[]) => Segment[]): Buffer {
  const { segments, rest } = split(jpeg);
  return assemble(edit(segments), rest);
}

const app = (n: number, ...parts: (string | Buffer | number[])[]): Segment => ({
  marker: 0xe0 + n,
  data: Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p)))),
});

type Entry = [tag: number, type: number, count: number, value: number | [number, number]];

/** An `Exif\0\0` block, little-endian, with these IFD0 entries (SHORT/LONG inline, RATIONAL after the IFD). */
function exifBlock(entries: Entry[]): Buffer {
  const ifdSize = 2 + 12 * entries.length + 4;
  const tiff = Buffer.alloc(8 + ifdSize + 8 * entries.length);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(entries.length, 8);
  let data = 8 + ifdSize;
  entries.forEach(([tag, type, count, value], i) => {
    const at = 10 + 12 * i;
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(type, at + 2);
    tiff.writeUInt32LE(count, at + 4);
    if (Array.isArray(value)) {
      tiff.writeUInt32LE(data, at + 8);
      tiff.writeUInt32LE(value[0], data);
      tiff.writeUInt32LE(value[1], data + 4);
      data += 8;
    } else if (type === 3) tiff.writeUInt16LE(value, at + 8);
    else tiff.writeUInt32LE(value, at + 8);
  });
  return Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
}

/** An MPF index (little-endian TIFF) whose MP Entry list has `images` entries, all pointing at offset 8. */
function mpfIndex(images: number): Buffer {
  const tiff = Buffer.alloc(8 + 2 + 12 + 4 + 16 * images);
  tiff.write('II*\0', 0, 'latin1');
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(1, 8);
  tiff.writeUInt16LE(0xb002, 10);
  tiff.writeUInt16LE(7, 12);
  tiff.writeUInt32LE(16 * images, 14);
  tiff.writeUInt32LE(26, 18);
  for (let i = 0; i < images; i++) tiff.writeUInt32LE(8, 26 + 16 * i + 8);
  return tiff;
}

const withExif = (jpeg: Buffer, entries: Entry[]): Buffer =>
  edited(jpeg, (s) => [s[0]!, app(1, exifBlock(entries)), ...s.slice(1)]);

const jfif = (unit: number, x: number, y: number): Segment => {
  const data = Buffer.from('JFIF\0\x01\x01\0\0\0\0\0\0\0', 'latin1');
  data[7] = unit;
  data.writeUInt16BE(x, 8);
  data.writeUInt16BE(y, 10);
  return { marker: 0xe0, data };
};

const base = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 90, b: 30 } } }).jpeg().toBuffer();

describe('readJpegHeader reports what sharp reports', () => {
  it('for the JPEG kinds sharp writes', async () => {
    const rgb = sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 90, b: 30 } } });
    const files = [
      base,
      await rgb.clone().jpeg({ progressive: true }).toBuffer(),
      await rgb.clone().jpeg({ chromaSubsampling: '4:4:4' }).toBuffer(),
      await rgb.clone().greyscale().jpeg().toBuffer(),
      await rgb.clone().toColourspace('cmyk').jpeg().toBuffer(),
      await rgb.clone().withMetadata({ orientation: 6, density: 300 }).jpeg().toBuffer(),
      await rgb.clone().withIccProfile('p3').jpeg().toBuffer(),
      await rgb.clone().withExif({ IFD0: { Make: 'Canon', Model: 'EOS' } }).jpeg().toBuffer(),
    ];
    for (const file of files) expect(await compareWithSharp(file)).toBe('fast');
  });

  it('for EXIF orientation and resolution entries libvips reads in its own way', async () => {
    const cases: Entry[][] = [
      [[0x0112, 3, 1, 9]], // out of 1..8: libvips reads 1
      [[0x0112, 3, 1, 0]],
      [[0x0112, 3, 1, 8]],
      [[0x011a, 5, 1, [300, 1]], [0x011b, 5, 1, [300, 1]]], // unit absent: inches
      [[0x011a, 5, 1, [300, 1]], [0x011b, 5, 1, [300, 1]], [0x0128, 3, 1, 1]], // no unit: an aspect ratio
      [[0x011a, 5, 1, [118, 1]], [0x011b, 5, 1, [118, 1]], [0x0128, 3, 1, 3]], // per centimetre
      [[0x011a, 5, 1, [72, 0]], [0x011b, 5, 1, [72, 1]], [0x0128, 3, 1, 2]], // zero denominator
      [[0x011a, 5, 1, [1, 100]], [0x011b, 5, 1, [1, 100]], [0x0128, 3, 1, 2]], // below 1 pixel per mm: no density
      [[0x011a, 5, 1, [300, 1]]], // YResolution missing: the JFIF density stays
    ];
    for (const entries of cases) expect(await compareWithSharp(withExif(base, entries))).toBe('fast');
  });

  it('for JFIF densities, units and aspect ratios', async () => {
    for (const [unit, x, y] of [[0, 1, 1], [0, 2, 1], [1, 300, 300], [2, 118, 118], [1, 1, 300], [1, 0, 0]] as const) {
      const file = edited(base, (s) => [jfif(unit, x, y), ...s.filter((seg) => seg.marker !== 0xe0)]);
      expect(await compareWithSharp(file)).toBe('fast');
    }
  });

  it('for repeated and partial blocks: first EXIF, first XMP, first IPTC, ICC from chunk 1 on', async () => {
    const xmp = (text: string): Segment => app(1, 'http://ns.adobe.com/xap/1.0/\0', text);
    const extension = app(1, 'http://ns.adobe.com/xmp/extension/\0', '0123456789ABCDEF0123456789ABCDEF', '<x:xmpmeta/>');
    const iptc = (text: string): Segment => app(13, 'Photoshop 3.0\0', '8BIM', [4, 4, 0, 0, 0, 0, 0, text.length + 5], [0x1c, 2, 120, 0, text.length], text);
    const icc = (n: number, of: number): Segment => app(2, 'ICC_PROFILE\0', [n, of], 'profile bytes');
    const files = [
      edited(base, (s) => [s[0]!, app(1, exifBlock([[0x0112, 3, 1, 3]])), app(1, exifBlock([[0x0112, 3, 1, 6]])), ...s.slice(1)]),
      edited(base, (s) => [s[0]!, xmp('<x:xmpmeta>first</x:xmpmeta>'), xmp('<x:xmpmeta>second</x:xmpmeta>'), ...s.slice(1)]),
      edited(base, (s) => [s[0]!, extension, xmp('<x:xmpmeta/>'), ...s.slice(1)]),
      edited(base, (s) => [s[0]!, app(1, 'http', 'x'.repeat(100), '\0<x/>'), xmp('<x:xmpmeta/>'), ...s.slice(1)]),
      edited(base, (s) => [s[0]!, iptc('first'), iptc('second'), ...s.slice(1)]),
      edited(base, (s) => [s[0]!, icc(1, 2), icc(2, 2), ...s.slice(1)]),
      edited(base, (s) => [s[0]!, icc(2, 2), ...s.slice(1)]),
      edited(base, (s) => [s[0]!, app(1, 'Exif'), ...s.slice(1)]),
      edited(base, (s) => [s[0]!, app(14, 'Adobe\0\x64\0\0\0\0\x01'), app(15, 'anything'), { marker: 0xfe, data: Buffer.from('a comment') }, ...s.slice(1)]),
    ];
    for (const file of files) expect(await compareWithSharp(file)).toBe('fast');
  });

  it('leaves to sharp what it does not read the same way, and never answers where sharp fails', async () => {
    const sof = (s: Segment[]): Segment => s.find((seg) => seg.marker === 0xc0)!;
    const withSof = (edit: (data: Buffer) => void): Buffer => edited(base, (s) => {
      const data = Buffer.from(sof(s).data);
      edit(data);
      return s.map((seg) => (seg.marker === 0xc0 ? { marker: 0xc0, data } : seg));
    });
    const files = [
      withSof((d) => { d[0] = 12; }), // 12-bit samples
      withSof((d) => { d[7] = 0x51; }), // sampling factor 5
      withSof((d) => { d.writeUInt16BE(0, 1); }), // height 0
      withSof((d) => { d[9] = d[6]!; }), // two components with one id
      edited(base, (s) => [...s, { ...sof(s) }]), // a second frame header
      edited(base, (s) => s.map((seg) => (seg.marker === 0xc0 ? { ...seg, marker: 0xc3 } : seg))), // lossless
      edited(base, (s) => s.map((seg) => (seg.marker === 0xdb ? { ...seg, data: Buffer.concat([Buffer.from([5]), seg.data.subarray(1)]) } : seg))),
      edited(base, (s) => s.map((seg) => (seg.marker === 0xc4 ? { ...seg, data: Buffer.concat([Buffer.from([0x24]), seg.data.subarray(1)]) } : seg))),
      edited(base, (s) => [...s, { marker: 0xdd, data: Buffer.from([0, 1, 2]) }]), // DRI of the wrong length
      edited(base, (s) => [s[0]!, app(2, 'MPF\0', 'II*\0'), ...s.slice(1)]), // an MPF index that cannot be read
      edited(base, (s) => [s[0]!, app(2, 'MPF\0', mpfIndex(1000)), ...s.slice(1)]), // more images than a camera writes
      withExif(base, [[0x0112, 4, 1, 6]]), // Orientation as a LONG
      withExif(base, [[0x0112, 3, 1, 6], [0x0112, 3, 1, 3]]), // Orientation twice
      withExif(base, [[0x011a, 5, 1, [300, 1]], [0x011b, 5, 1, [300, 1]], [0x0128, 3, 1, 7]]), // unknown unit
      edited(base, (s) => [jfif(3, 300, 300), ...s.filter((seg) => seg.marker !== 0xe0)]), // unknown JFIF unit
    ];
    for (const file of files) expect(await compareWithSharp(file)).toBe('sharp');
    // Frame and scan headers out of order: sharp fails, the reader must not answer.
    const { segments, rest } = split(base);
    const noFrame = assemble(segments.filter((seg) => seg.marker !== 0xc0), rest);
    expect(readJpegHeader(noFrame)).toBeUndefined();
    await expect(sharp(noFrame).metadata()).rejects.toThrow();
  });
});

describe('readJpegHeader and gain maps (libvips reads those JPEGs with its Ultra HDR loader)', () => {
  it('leaves a JPEG with a gain map to sharp, and reads an MPF JPEG without one', async () => {
    // withGainMap() (sharp 0.35, experimental, not in its type declarations) writes an ISO 21496-1 gain map.
    const ultraHdr = await (sharp(base) as unknown as { withGainMap(): Sharp }).withGainMap().jpeg().toBuffer();
    expect((await sharp(ultraHdr).metadata()).gainMap).toBeDefined();
    expect(await compareWithSharp(ultraHdr)).toBe('sharp');
    // Without the primary image's ISO 21496-1 segment, the gain map image still declares itself.
    const isoSegment = (seg: Segment): boolean => seg.marker === 0xe2 && seg.data.subarray(0, 7).toString('latin1') === 'urn:iso';
    const secondaryOnly = edited(ultraHdr, (s) => s.filter((seg) => !isoSegment(seg)));
    expect(readJpegHeader(secondaryOnly)).toBeUndefined();
    // With neither, libultrahdr finds no gain map metadata and libvips reads the file as a plain JPEG.
    const plain = Buffer.from(secondaryOnly);
    const second = plain.indexOf('urn:iso', plain.indexOf(Buffer.from([0xff, 0xd8, 0xff]), 2));
    plain.write('urn:xso', second, 'latin1');
    expect((await sharp(plain).metadata()).gainMap).toBeUndefined();
    expect(await compareWithSharp(plain)).toBe('fast');
  });
});

function jpegsUnder(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jpegsUnder(path);
    return /\.jpe?g$/i.test(name) ? [path] : [];
  });
}

const datasetJpegs = jpegsUnder(join(DATASETS, 'images'));

describe.skipIf(datasetJpegs.length === 0)('readJpegHeader on every JPEG of the shared image datasets', () => {
  it('agrees with sharp wherever it answers, and answers for nearly all of them', async () => {
    let fast = 0;
    for (const file of datasetJpegs) {
      if ((await compareWithSharp(readFileSync(file))) === 'fast') fast += 1;
    }
    console.log(`readJpegHeader: ${fast} of ${datasetJpegs.length} dataset JPEGs read without sharp, all as sharp reads them`);
    expect(datasetJpegs.length).toBeGreaterThan(100);
    expect(fast / datasetJpegs.length).toBeGreaterThan(0.98);
  }, 120_000);
});
