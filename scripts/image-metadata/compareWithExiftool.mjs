// Field-level comparison of an extractImageMetadata() result with one entry of `exiftool -json -G1 -a -n`.
// Shared by the agreement test (packages/image-metadata/test) and the evaluation script beside this file.

/** Our field -> the exiftool keys that hold it (first present wins), and how values compare. */
export const FIELD_MAP = [
  ['metadata.width', ['File:ImageWidth', 'PNG:ImageWidth', 'RIFF:ImageWidth'], 'number'],
  ['metadata.height', ['File:ImageHeight', 'PNG:ImageHeight', 'RIFF:ImageHeight'], 'number'],
  ['exif.Make', ['IFD0:Make'], 'string'],
  ['exif.Model', ['IFD0:Model'], 'string'],
  ['exif.Software', ['IFD0:Software'], 'string'],
  ['exif.Orientation', ['IFD0:Orientation'], 'number'],
  ['exif.ModifyDate', ['IFD0:ModifyDate'], 'string'],
  ['exif.DateTimeOriginal', ['ExifIFD:DateTimeOriginal'], 'string'],
  ['exif.CreateDate', ['ExifIFD:CreateDate'], 'string'],
  ['exif.Artist', ['IFD0:Artist'], 'string'],
  ['exif.Copyright', ['IFD0:Copyright'], 'string'],
  ['exif.ImageDescription', ['IFD0:ImageDescription'], 'string'],
  ['exif.ExposureTime', ['ExifIFD:ExposureTime'], 'number'],
  ['exif.FNumber', ['ExifIFD:FNumber'], 'number'],
  ['exif.ISO', ['ExifIFD:ISO'], 'number'],
  ['exif.FocalLength', ['ExifIFD:FocalLength'], 'number'],
  ['exif.Flash', ['ExifIFD:Flash'], 'number'],
  ['exif.LensModel', ['ExifIFD:LensModel'], 'string'],
  ['exif.UserComment', ['ExifIFD:UserComment'], 'string'],
  ['exif.SerialNumber', ['ExifIFD:SerialNumber'], 'string'],
  ['exif.ExifImageWidth', ['ExifIFD:ExifImageWidth'], 'number'],
  ['exif.ExifImageHeight', ['ExifIFD:ExifImageHeight'], 'number'],
  ['exif.GPSLatitude', ['Composite:GPSLatitude'], 'number'],
  ['exif.GPSLongitude', ['Composite:GPSLongitude'], 'number'],
  ['exif.GPSAltitude', ['Composite:GPSAltitude'], 'number'],
  ['exif.Headline', ['XMP-photoshop:Headline', 'IPTC:Headline'], 'string'],
  ['exif.City', ['XMP-photoshop:City', 'IPTC:City'], 'string'],
  ['exif.Country', ['XMP-photoshop:Country', 'IPTC:Country-PrimaryLocationName'], 'string'],
  ['exif.CreditLine', ['XMP-photoshop:Credit', 'IPTC:Credit'], 'string'],
  ['exif.Source', ['XMP-photoshop:Source', 'IPTC:Source'], 'string'],
  ['exif.Title', ['XMP-dc:Title', 'IPTC:ObjectName'], 'string'],
  ['exif.Description', ['XMP-dc:Description', 'IPTC:Caption-Abstract', 'IFD0:ImageDescription'], 'string'],
  ['exif.CopyrightNotice', ['XMP-dc:Rights', 'IPTC:CopyrightNotice', 'IFD0:Copyright'], 'string'],
  ['exif.keywords', ['XMP-dc:Subject', 'IPTC:Keywords'], 'list'],
  ['exif.DigitalSourceType', ['XMP-iptcExt:DigitalSourceType'], 'string'],
];

function pick(object, path) {
  return path.split('.').reduce((value, key) => (value == null ? undefined : value[key]), object);
}

function normalise(value, kind) {
  if (value === undefined || value === null) return undefined;
  if (kind === 'number') {
    const n = typeof value === 'number' ? value : Number(value);
    return Number.isFinite(n) ? n : String(value);
  }
  if (kind === 'list') return (Array.isArray(value) ? value : [value]).map((v) => String(v).trim());
  // Whitespace-only text (cameras pad ImageDescription with spaces) counts as absent on both sides.
  const text = String(value).replace(/\0+$/, '').trim();
  return text.length > 0 ? text : undefined;
}

function equal(ours, theirs, kind) {
  if (kind === 'number' && typeof ours === 'number' && typeof theirs === 'number') {
    return Math.abs(ours - theirs) <= 1e-6 * Math.max(1, Math.abs(theirs));
  }
  if (kind === 'list') return JSON.stringify(ours) === JSON.stringify(theirs);
  return ours === theirs;
}

/**
 * Compares every mapped field the reference has (or we have). Returns {compared, disagreements[]} where each
 * disagreement is {field, exiftoolKey, ours, exiftool}. Empty strings in the reference count as absent.
 */
export function compareWithExiftool(result, reference) {
  const disagreements = [];
  let compared = 0;
  for (const [field, keys, kind] of FIELD_MAP) {
    const key = keys.find((k) => reference[k] !== undefined && reference[k] !== '');
    const theirs = key ? normalise(reference[key], kind) : undefined;
    const ours = normalise(pick(result, field), kind);
    if (theirs === undefined && ours === undefined) continue;
    compared++;
    if (theirs === undefined || ours === undefined || !equal(ours, theirs, kind)) {
      disagreements.push({ field, exiftoolKey: key ?? keys[0], ours, exiftool: theirs });
    }
  }
  return { compared, disagreements };
}

/** Camera JPEGs of exif-samples the agreement is measured on (the invalid/ folder holds deliberately broken files). */
export function isCameraJpeg(sourceFile) {
  return /\.jpe?g$/i.test(sourceFile) && !sourceFile.includes('/invalid/');
}
