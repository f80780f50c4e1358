import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractImageMetadata } from '../src/index.js';
import { imageDataset } from './datasets.js';

const publicDir = imageDataset('c2pa-public-testfiles');
const sdkDir = imageDataset('c2pa-sdk-fixtures');
const read = (file: string) => extractImageMetadata(readFileSync(file), { minDimension: 0, decodeWatermark: false });

interface ReferenceStore {
  active_manifest?: string;
  manifests: Record<string, { claim_generator?: string; title?: string; format?: string; instance_id?: string; ingredients?: { title?: string }[]; signature_info?: { issuer?: string } }>;
  validation_status?: { code: string }[];
}

/** Codes that depend on the reader's trust list or on the clock rather than on the file. */
const TRUST_OR_TIME = new Set(['signingCredential.untrusted', 'signingCredential.expired', 'timeStamp.mismatch', 'timeStamp.untrusted']);

describe.skipIf(!publicDir)('C2PA conformance files against the reference reader (c2patool manifest_store.json)', () => {
  it('agrees on manifests, generators, titles, ingredients, signers and failure codes; reports every disagreement', async () => {
    const names = ['adobe-20220124-CA', 'adobe-20220124-CACAICAICICA', 'adobe-20220124-CAIAIIICAICIICAIICICA', 'adobe-20220124-CAICAI',
      'adobe-20220124-CICA', 'adobe-20220124-CIE-sig-CA', 'adobe-20220124-E-clm-CAICAI', 'adobe-20220124-E-sig-CA',
      'adobe-20220124-E-uri-CIE-sig-CA', 'adobe-20220124-XCA', 'nikon-20221019-building', 'truepic-20230212-camera'];
    const disagreements: string[] = [];
    let compared = 0;
    const check = (name: string, what: string, ours: unknown, theirs: unknown) => {
      compared++;
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) disagreements.push(`${name} ${what}: ours ${JSON.stringify(ours)} reference ${JSON.stringify(theirs)}`);
    };
    for (const name of names) {
      const file = ['jpg', 'jpeg'].map((ext) => join(publicDir!, `${name}.${ext}`)).find(existsSync);
      const refFile = join(publicDir!, 'manifests', name, 'manifest_store.json');
      if (!file || !existsSync(refFile)) continue;
      const ref = JSON.parse(readFileSync(refFile, 'utf8')) as ReferenceStore;
      const { c2pa } = await read(file);
      check(name, 'active manifest', c2pa.active_manifest_label, ref.active_manifest);
      check(name, 'manifest labels', Object.keys(c2pa.manifests ?? {}).sort(), Object.keys(ref.manifests).sort());
      for (const [label, manifest] of Object.entries(ref.manifests)) {
        const ours = c2pa.manifests?.[label];
        check(name, `${label} claim_generator`, ours?.claim_generator, manifest.claim_generator);
        check(name, `${label} title`, ours?.title, manifest.title);
        check(name, `${label} ingredient titles`, ours?.ingredient_paths, (manifest.ingredients ?? []).map((i) => i.title));
        check(name, `${label} signer`, (ours?.signature_info as { issuer?: string } | undefined)?.issuer, manifest.signature_info?.issuer);
      }
      const refFailures = (ref.validation_status ?? []).map((s) => s.code).filter((c) => !TRUST_OR_TIME.has(c)).sort();
      const ourFailures = (c2pa.validation_status ?? []).map((s) => s.code).filter((c) => !TRUST_OR_TIME.has(c)).sort();
      check(name, 'failure codes', ourFailures, refFailures);
      check(name, 'validation_state', c2pa.validation_state, refFailures.length > 0 ? 'invalid' : 'valid');
    }
    const rate = 1 - disagreements.length / compared;
    console.log(`c2patool agreement: ${compared - disagreements.length}/${compared} checks (${(rate * 100).toFixed(2)}%)`);
    for (const line of disagreements) console.log(`  disagreement: ${line}`);
    expect(compared).toBeGreaterThan(50);
    expect(rate).toBeGreaterThanOrEqual(0.9);
  });

  it.each([
    ['adobe-20220124-E-sig-CA.jpg', 'claimSignature.mismatch'],
    ['adobe-20220124-E-uri-CIE-sig-CA.jpg', 'assertion.hashedURI.mismatch'],
    ['adobe-20220124-XCA.jpg', 'assertion.dataHash.mismatch'],
    ['adobe-20220124-E-clm-CAICAI.jpg', 'assertion.hashedURI.mismatch'],
    ['nikon-20221019-building.jpeg', 'signingCredential.expired'],
  ])('reports broken %s as invalid with %s', async (file, code) => {
    const { c2pa } = await read(join(publicDir!, file));
    expect(c2pa.validation_state).toBe('invalid');
    expect(c2pa.validation_status?.map((s) => s.code)).toContain(code);
  });

  it('gives an empty c2pa object, not an error, for a file without C2PA', async () => {
    const result = await read(join(publicDir!, 'adobe-20220124-A.jpg'));
    expect(result.c2pa).toEqual({});
    expect(result.errors).toEqual([]);
  });

  it('never puts key material in the result and describes the signer', async () => {
    const { c2pa } = await read(join(publicDir!, 'adobe-20220124-CA.jpg'));
    expect(JSON.stringify(c2pa)).not.toMatch(/private_key|BEGIN (RSA |EC )?PRIVATE KEY/);
    expect(c2pa.active_manifest?.sign_cert).toMatch(/^issuer=C2PA Test Signing Cert; subject=C2PA Signer/);
    expect(c2pa.active_manifest?.alg).toBe('ps256');
    expect(c2pa.validation_state).toBe('valid');
  });
});

describe.skipIf(!sdkDir)('C2PA SDK fixtures: remote manifests, AI declarations, controls', () => {
  it.each(['c2pa-rs/cloud.jpg', 'c2pa-node/cloud-only-firefly.jpg'])('reports %s as a remote (cloud) manifest, unverified', async (file) => {
    const { c2pa } = await read(join(sdkDir!, file));
    expect(c2pa.manifest_location).toBe('remote');
    expect(c2pa.remote_manifest_url).toMatch(/^https:\/\/cai-manifests\.adobe\.com\/manifests\//);
    expect(c2pa.validation_state).toBe('unverified');
  });

  it('flags a dangling XMP provenance pointer as invalid (claim.missing)', async () => {
    const { c2pa } = await read(join(sdkDir!, 'c2pa-rs/no_manifest.jpg'));
    expect(c2pa.validation_state).toBe('invalid');
    expect(c2pa.validation_status?.[0]?.code).toBe('claim.missing');
  });

  it.each(['c2pa-rs/ocsp.jpg', 'c2pa-node/ingredient-with-data-types.jpg'])('detects the trainedAlgorithmicMedia declaration of %s', async (file) => {
    const result = await read(join(sdkDir!, file));
    expect(result.ai_watermark_detected).toBe(true);
    const signals = Object.values(result.ai_watermark_issuers).flatMap((i) => i.signals.map((s) => s.signal));
    expect(signals).toContain('c2pa_digital_source_type');
  });

  it('names Adobe Firefly from the claim generator', async () => {
    const result = await read(join(sdkDir!, 'c2pa-node/ingredient-with-data-types.jpg'));
    expect(result.ai_watermark_issuers['Adobe Firefly']?.strength).toBe('strong');
  });

  it.each(['c2pa-rs/C.jpg', 'c2pa-rs/CA.jpg', 'c2pa-rs/C_with_CAWG_data.jpg', 'c2pa-rs/IMG_0003.jpg', 'c2pa-rs/sample1.png', 'c2pa-rs/sample1.webp', 'c2pa-node/A.jpg'])(
    'does not flag %s (no generative-AI declaration) as AI',
    async (file) => {
      const result = await read(join(sdkDir!, file));
      expect(result.ai_watermark_detected).toBe(false);
    },
  );
});
