import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { c2paObject, exifObject, metadataObject } from '../../engine/src/schemas/results.js';
import { buildExifObject, EXIF_FIELD_READERS, extractImageMetadata, parseIptcIim, parseXmp } from '../src/index.js';
import { imageDataset } from './datasets.js';

const iptcDir = imageDataset('iptc-reference');
const exifrDir = imageDataset('exifr-fixtures');

describe('parseXmp', () => {
  it('keeps strings as strings, takes x-default of alternatives, arrays of bags, structures by local name', () => {
    const xmp = parseXmp(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" xmlns:I="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/" xmlns:dc="http://purl.org/dc/elements/1.1/" I:CountryCode="R22">
        <I:Scene><rdf:Bag><rdf:li>011221</rdf:li></rdf:Bag></I:Scene>
        <dc:title><rdf:Alt><rdf:li xml:lang="en">EN</rdf:li><rdf:li xml:lang="x-default">Default &amp; Co&#39;s</rdf:li></rdf:Alt></dc:title>
        <I:CreatorContactInfo rdf:parseType="Resource"><I:CiAdrCity>Paris</I:CiAdrCity></I:CreatorContactInfo>
      </rdf:Description></rdf:RDF></x:xmpmeta>`);
    expect(xmp).toEqual({
      'Iptc4xmpCore:CountryCode': 'R22',
      'Iptc4xmpCore:Scene': ['011221'],
      'dc:title': "Default & Co's",
      'Iptc4xmpCore:CreatorContactInfo': { CiAdrCity: 'Paris' },
    });
  });

  it('returns an empty object for text that is not XMP', () => {
    expect(parseXmp('<<< not xml')).toEqual({});
  });
});

describe('parseIptcIim', () => {
  it('reads record-2 datasets from a Photoshop resource block, repeatable ones as arrays', () => {
    const dataset = (n: number, text: string) => [0x1c, 2, n, 0, text.length, ...Buffer.from(text, 'latin1')];
    const iim = [...dataset(5, 'Title'), ...dataset(25, 'a'), ...dataset(25, 'b')];
    const irb = Buffer.from([...Buffer.from('Photoshop 3.0\0', 'latin1'), ...Buffer.from('8BIM'), 0x04, 0x04, 0, 0, 0, 0, 0, iim.length, ...iim]);
    expect(parseIptcIim(irb)).toEqual({ ObjectName: 'Title', Keywords: ['a', 'b'] });
  });
});

describe('precedence XMP > IPTC-IIM > EXIF', () => {
  it('takes the first source that has a value', () => {
    const { exif, fieldSources } = buildExifObject({
      xmp: { 'photoshop:Headline': 'from xmp' },
      iptc: { Headline: 'from iim', 'Caption-Abstract': 'caption from iim' },
      exif: { ImageDescription: 'from exif', Artist: 'artist from exif' },
    });
    expect(exif).toMatchObject({ Headline: 'from xmp', Description: 'caption from iim', Creator: 'artist from exif' });
    expect(fieldSources).toMatchObject({ Headline: 'xmp', Description: 'iptc', Creator: 'exif' });
  });
});

describe.skipIf(!iptcDir)('IPTC Photo Metadata reference image (every field filled)', () => {
  it('maps every documented exif field, keywords as an array and ImageCreator as an object', async () => {
    const result = await extractImageMetadata(readFileSync(join(iptcDir!, 'IPTC-PhotometadataRef-Std2022.1.jpg')), { decodeWatermark: false });
    const missing = Object.keys(EXIF_FIELD_READERS).filter((field) => typeof result.exif[field] !== 'string');
    // The 2022.1 file carries no plus:DataMining (absent from its exiftool XML dump too); it is mapped below.
    expect(missing).toEqual(['DataMining']);
    expect(buildExifObject({ xmp: { 'plus:DataMining': 'http://ns.useplus.org/ldf/vocab/DMI-PROHIBITED' }, iptc: {}, exif: {} }).exif['DataMining'])
      .toBe('http://ns.useplus.org/ldf/vocab/DMI-PROHIBITED');
    expect(result.exif).toMatchObject({
      Headline: 'The Headline (ref2022.1)',
      Creator: 'Creator1 (ref2022.1)',
      Description: 'The description aka caption (ref2022.1)',
      CopyrightNotice: 'Copyright (Notice) 2022.1 IPTC - www.iptc.org  (ref2022.1)',
      WebStatementofRights: 'https://example.com/WebStatementOfRights/2022.1',
      RightsUsageTerms: 'Rights Usage Terms (ref2022.1)',
      DigitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/softwareImage',
      DateCreated: '2022-10-19T22:01:00+00:00',
      SceneCode: '011221, 012221',
      keywords: ['Keyword1ref2022.1', 'Keyword2ref2022.1', 'Keyword3ref2022.1'],
      ImageCreator: { ImageCreatorName: 'Image Creator Name 1 (ref2022.1)', ImageCreatorID: 'Image Creator Id 1 (ref2022.1)' },
    });
    expect(exifObject.safeParse(result.exif).success).toBe(true);
    expect(metadataObject.safeParse(result.metadata).success).toBe(true);
    expect(result.ai_watermark_detected).toBe(false); // softwareImage is not generative AI
  });
});

describe.skipIf(!exifrDir)('IPTC-IIM only files (exifr fixtures, values from exifr tests)', () => {
  it('reads the agency photographer example', async () => {
    const { exif } = await extractImageMetadata(readFileSync(join(exifrDir!, 'iptc-agency-photographer-example.jpg')), { minDimension: 0, decodeWatermark: false });
    expect(exif).toMatchObject({ City: 'Washington', Headline: 'Lincoln Memorial', CreditLine: 'Mugwum Press', Source: 'Julie Doe / Mugwum Press' });
    expect(exif.Creator).toContain('Julie Doe');
    expect(Array.isArray(exif.keywords)).toBe(true);
  });
});

describe('result shapes parse with the engine schemas', () => {
  const dirs = [imageDataset('c2pa-public-testfiles'), imageDataset('c2pa-sdk-fixtures'), imageDataset('exif-samples')].filter((d): d is string => d !== undefined);
  it.skipIf(dirs.length < 3)('metadata, exif and c2pa of C2PA, PNG, WEBP and camera files', async () => {
    const files = [
      join(dirs[0]!, 'adobe-20220124-CAICAI.jpg'), join(dirs[0]!, 'truepic-20230212-camera.jpg'),
      join(dirs[1]!, 'c2pa-rs/sample1.png'), join(dirs[1]!, 'c2pa-rs/sample1.webp'), join(dirs[1]!, 'c2pa-rs/ocsp.jpg'),
      join(dirs[2]!, 'jpg/gps/DSCN0010.jpg'),
    ];
    for (const file of files) {
      const result = await extractImageMetadata(readFileSync(file), { minDimension: 0, decodeWatermark: false });
      expect(metadataObject.safeParse(result.metadata).error, file).toBeUndefined();
      expect(exifObject.safeParse(result.exif).error, file).toBeUndefined();
      expect(c2paObject.safeParse(result.c2pa).error, file).toBeUndefined();
    }
  });
});
