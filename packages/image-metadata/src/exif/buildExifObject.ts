import type { IptcFields } from '../iptc/parseIptcIim.js';
import type { XmpProperties, XmpValue } from '../xmp/parseXmp.js';
import type { CameraExif } from './readCameraExif.js';

/**
 * The documented `exif` object: the IPTC Photo Metadata fields (all strings but `keywords` and `ImageCreator`),
 * then camera EXIF under exiftool's tag names (Make, Model, DateTimeOriginal, GPSLatitude...).
 */
export interface ExifObject extends CameraExif {
  [field: string]: unknown;
  keywords?: string[];
  ImageCreator?: Record<string, unknown>;
}

/** Where a field was read from, for callers that want to explain a value. */
export type ExifFieldSource = 'xmp' | 'iptc' | 'exif';

/** One way to read a field: a source and a getter returning a non-empty string or undefined. */
interface FieldReader {
  source: ExifFieldSource;
  read: (sources: ExifSources) => string | undefined;
}

/** The three parsed metadata blocks of an image. */
export interface ExifSources {
  xmp: XmpProperties;
  iptc: IptcFields;
  exif: CameraExif;
}

const SEPARATOR = ', ';

/** Flattens an XMP value to text: arrays joined, structures reduced to the named fields (first present wins). */
function text(value: XmpValue | undefined, ...structFields: string[]): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() || undefined;
  if (Array.isArray(value)) {
    const parts = value.map((v) => text(v, ...structFields)).filter((v): v is string => v !== undefined);
    return parts.length > 0 ? parts.join(SEPARATOR) : undefined;
  }
  for (const field of structFields) {
    const inner = text(value[field]);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

const xmp = (key: string, ...structFields: string[]): FieldReader => ({
  source: 'xmp',
  read: (s) => text(s.xmp[key], ...structFields),
});
const iim = (name: string): FieldReader => ({
  source: 'iptc',
  read: (s) => {
    const value = s.iptc[name];
    const joined = Array.isArray(value) ? value.filter((v) => v.length > 0).join(SEPARATOR) : value;
    return joined && joined.length > 0 ? joined : undefined;
  },
});
const exif = (name: keyof CameraExif): FieldReader => ({
  source: 'exif',
  read: (s) => {
    const value = s.exif[name];
    return value === undefined ? undefined : String(value);
  },
});
const iimDate: FieldReader = {
  source: 'iptc',
  read: (s) => {
    const date = s.iptc['DateCreated'];
    if (typeof date !== 'string' || !/^\d{8}$/.test(date)) return undefined;
    const iso = `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`;
    const time = s.iptc['TimeCreated'];
    const t = typeof time === 'string' ? /^(\d\d)(\d\d)(\d\d)([+-]\d\d)?(\d\d)?$/.exec(time) : null;
    return t ? `${iso}T${t[1]}:${t[2]}:${t[3]}${t[4] ? `${t[4]}:${t[5] ?? '00'}` : ''}` : iso;
  },
};
const exifDate: FieldReader = {
  source: 'exif',
  read: (s) => {
    const d = s.exif.DateTimeOriginal ?? s.exif.CreateDate;
    const m = d ? /^(\d{4}):(\d\d):(\d\d) (\d\d):(\d\d):(\d\d)/.exec(d) : null;
    return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${s.exif.OffsetTimeOriginal ?? ''}` : undefined;
  },
};
const locationCreated: FieldReader = {
  source: 'xmp',
  read: (s) => {
    const value = s.xmp['Iptc4xmpExt:LocationCreated'];
    const first = Array.isArray(value) ? value[0] : value;
    if (first === undefined || typeof first === 'string') return text(first);
    if (Array.isArray(first)) return text(first);
    const name = text(first['LocationName']);
    const parts = ['Sublocation', 'City', 'ProvinceState', 'CountryName'].map((k) => text(first[k])).filter(Boolean);
    return name ?? (parts.length > 0 ? parts.join(SEPARATOR) : text(first['LocationId']));
  },
};
const registryEntry: FieldReader = {
  source: 'xmp',
  read: (s) => {
    const value = s.xmp['plus:ImageRegistryEntry'] ?? s.xmp['Iptc4xmpExt:RegistryId'];
    const items = Array.isArray(value) ? value : value === undefined ? [] : [value];
    const parts = items.map((item) => {
      if (typeof item === 'string' || Array.isArray(item)) return text(item);
      const id = text(item['RegItemId']);
      const org = text(item['RegOrgId']);
      return id && org ? `${org}: ${id}` : (id ?? org);
    }).filter((v): v is string => v !== undefined);
    return parts.length > 0 ? parts.join(SEPARATOR) : undefined;
  },
};

/**
 * Each documented field with its readers in precedence order: XMP first (the current IPTC standard, Unicode, no
 * length limits), then IPTC-IIM (legacy, 32-64 byte limits), then EXIF. The first non-empty value wins.
 */
export const EXIF_FIELD_READERS: Readonly<Record<string, readonly FieldReader[]>> = Object.freeze({
  DateCreated: [xmp('photoshop:DateCreated'), iimDate, exifDate],
  Description: [xmp('dc:description'), iim('Caption-Abstract'), exif('ImageDescription')],
  Headline: [xmp('photoshop:Headline'), iim('Headline')],
  MaxAvailWidth: [xmp('Iptc4xmpExt:MaxAvailWidth')],
  MaxAvailHeight: [xmp('Iptc4xmpExt:MaxAvailHeight')],
  ImageRating: [xmp('xmp:Rating')],
  DescriptionWriter: [xmp('photoshop:CaptionWriter'), iim('Writer-Editor')],
  Genre: [xmp('Iptc4xmpExt:Genre', 'CvTermName', 'CvTermId'), xmp('Iptc4xmpCore:IntellectualGenre'), iim('ObjectAttributeReference')],
  RightsUsageTerms: [xmp('xmpRights:UsageTerms')],
  SceneCode: [xmp('Iptc4xmpCore:Scene')],
  AdditionalModelInformation: [xmp('Iptc4xmpExt:AddlModelInfo')],
  Creator: [xmp('dc:creator'), iim('By-line'), exif('Artist')],
  CreditLine: [xmp('photoshop:Credit'), iim('Credit')],
  CopyrightNotice: [xmp('dc:rights'), iim('CopyrightNotice'), exif('Copyright')],
  ImageSupplier: [xmp('plus:ImageSupplier', 'ImageSupplierName', 'ImageSupplierID')],
  Locationcreated: [locationCreated],
  MinorModelAgeDisclosure: [xmp('plus:MinorModelAgeDisclosure')],
  WebStatementofRights: [xmp('xmpRights:WebStatement')],
  ModelAge: [xmp('Iptc4xmpExt:ModelAge')],
  ImageSupplierImageID: [xmp('plus:ImageSupplierImageID')],
  LinkedEncodedRightsExpression: [xmp('Iptc4xmpExt:LinkedEncRightsExpr', 'LinkedRightsExpr')],
  DataMining: [xmp('plus:DataMining')],
  Artwork: [xmp('Iptc4xmpExt:ArtworkOrObject', 'AOTitle', 'AOSource', 'AOCreator')],
  ImageRegistryEntry: [registryEntry],
  City: [xmp('photoshop:City'), iim('City')],
  CodeofOrganisationFeaturedintheImage: [xmp('Iptc4xmpExt:OrganisationInImageCode')],
  EventIdentifier: [xmp('Iptc4xmpExt:EventId')],
  EventName: [xmp('Iptc4xmpExt:Event')],
  Contributor: [xmp('Iptc4xmpExt:Contributor', 'Name', 'Identifier')],
  CopyrightOwner: [xmp('plus:CopyrightOwner', 'CopyrightOwnerName', 'CopyrightOwnerID')],
  Country: [xmp('photoshop:Country'), iim('Country-PrimaryLocationName')],
  DigitalSourceType: [xmp('Iptc4xmpExt:DigitalSourceType')],
  PropertyReleaseId: [xmp('plus:PropertyReleaseID')],
  PropertyReleaseStatus: [xmp('plus:PropertyReleaseStatus')],
  NameofOrganisationFeaturedintheImage: [xmp('Iptc4xmpExt:OrganisationInImageName')],
  Source: [xmp('photoshop:Source'), iim('Source')],
  DigitalImageGUID: [xmp('Iptc4xmpExt:DigImageGUID')],
  Licensor: [xmp('plus:Licensor', 'LicensorName', 'LicensorID')],
  Instructions: [xmp('photoshop:Instructions'), iim('SpecialInstructions')],
  Title: [xmp('dc:title'), iim('ObjectName')],
});

// The table as pairs, made once: Object.entries per image allocated forty pairs each time.
const FIELD_READERS = Object.entries(EXIF_FIELD_READERS);

/** Builds the documented `exif` object, plus `sources` telling which block each documented field came from. */
export function buildExifObject(sources: ExifSources): { exif: ExifObject; fieldSources: Record<string, ExifFieldSource> } {
  const out: ExifObject = {};
  const fieldSources: Record<string, ExifFieldSource> = {};
  for (const [field, readers] of FIELD_READERS) {
    for (const reader of readers) {
      const value = reader.read(sources);
      if (value !== undefined) {
        out[field] = value;
        fieldSources[field] = reader.source;
        break;
      }
    }
  }
  const keywords = keywordList(sources);
  if (keywords) {
    out.keywords = keywords.list;
    fieldSources['keywords'] = keywords.source;
  }
  const creator = imageCreator(sources.xmp);
  if (creator) {
    out.ImageCreator = creator;
    fieldSources['ImageCreator'] = 'xmp';
  }
  for (const [key, value] of Object.entries(sources.exif)) {
    if (value !== undefined && !(key in out)) out[key] = value;
  }
  return { exif: out, fieldSources };
}

function keywordList(sources: ExifSources): { list: string[]; source: ExifFieldSource } | undefined {
  const subject = sources.xmp['dc:subject'];
  const fromXmp = (Array.isArray(subject) ? subject : subject === undefined ? [] : [subject])
    .map((v) => text(v))
    .filter((v): v is string => v !== undefined);
  if (fromXmp.length > 0) return { list: fromXmp, source: 'xmp' };
  const fromIim = sources.iptc['Keywords'];
  const list = (Array.isArray(fromIim) ? fromIim : fromIim === undefined ? [] : [fromIim]).filter((k) => k.length > 0);
  return list.length > 0 ? { list, source: 'iptc' } : undefined;
}

/** `plus:ImageCreator` (a sequence of {ImageCreatorName, ImageCreatorID}) as one object; several creators joined. */
function imageCreator(props: XmpProperties): Record<string, unknown> | undefined {
  const value = props['plus:ImageCreator'];
  if (value === undefined) return undefined;
  const items = (Array.isArray(value) ? value : [value]).filter(
    (v): v is { [field: string]: XmpValue } => typeof v === 'object' && !Array.isArray(v),
  );
  if (items.length === 0) {
    const name = text(value);
    return name ? { ImageCreatorName: name } : undefined;
  }
  const names = items.map((i) => text(i['ImageCreatorName'])).filter((v): v is string => v !== undefined);
  const ids = items.map((i) => text(i['ImageCreatorID'])).filter((v): v is string => v !== undefined);
  const out: Record<string, unknown> = {};
  if (names.length > 0) out['ImageCreatorName'] = names.join(SEPARATOR);
  if (ids.length > 0) out['ImageCreatorID'] = ids.join(SEPARATOR);
  return Object.keys(out).length > 0 ? out : undefined;
}
