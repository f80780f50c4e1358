import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as classifiers from '@content-analysis/classifiers';
import { Engine, IMAGE_MODEL_VERSIONS, imageDetectionResult, openApiDocument } from '../src/index.js';
import { meteredEngine, rejection, routeToLocal, startLocalServer } from './helpers.js';
import {
  datasetImage, digitalSourceTypeXmp, failingClassifierDouble, FixedAiImageClassifierDouble, noisePng, realClassifierAvailable, syntheticPhoto,
} from './images.js';

const C2PA_AI_DECLARATION = datasetImage('c2pa-sdk-fixtures', 'c2pa-rs', 'ocsp.jpg');
const SD2_WATERMARK = datasetImage('sd-invisible-watermark', 'watermarked', 'peppers512__sd2_stability_uint8.png');

let photo: Buffer;
let server: Awaited<ReturnType<typeof startLocalServer>>;
const files = new Map<string, { body: Buffer; type: string }>();
beforeAll(async () => {
  photo = await syntheticPhoto();
  files.set('/photo.jpg', { body: photo, type: 'image/jpeg' });
  files.set('/photo.webp', { body: await syntheticPhoto({ format: 'webp' }), type: 'image/webp' });
  files.set('/small.png', { body: await syntheticPhoto({ width: 200, height: 300, format: 'png' }), type: 'image/png' });
  files.set('/page.html', { body: Buffer.from('<!doctype html><html><body>not an image</body></html>'), type: 'text/html' });
  server = await startLocalServer((req, res) => {
    const file = files.get(req.url ?? '');
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
});
afterAll(() => server.close());

/** A metered engine whose classifier is the test double answering `aiProbability` for every image. */
async function setup(aiProbability = 0.2, credits = 2000) {
  const classifier = new FixedAiImageClassifierDouble(aiProbability);
  const metered = await meteredEngine({ credits, fetch: routeToLocal(() => server.port), services: { imageClassifier: classifier } });
  return { ...metered, classifier };
}

const RESULT_KEYS = [
  'score', 'human_probability', 'ai_probability', 'version', 'confidence', 'mime_type', 'c2pa', 'exif', 'metadata', 'ai_watermark_detected',
  'ai_watermark_issuers', 'credits_used', 'credits_remaining',
];

describe('/v2/image-detection with a base64 image', () => {
  it('answers the documented result, with the classifier numbers and the file metadata, and charges 300', async () => {
    const { engine, ledger, accountId, token, classifier } = await setup(0.2);
    const { result } = await engine.execute('image-detection', { image: photo.toString('base64') }, { token });
    expect(Object.keys(result)).toEqual(RESULT_KEYS);
    expect(imageDetectionResult.strict().parse(result)).toEqual(result);
    expect(result).toMatchObject({
      score: 80,
      human_probability: 0.8,
      ai_probability: 0.2,
      version: '5',
      mime_type: 'image/jpeg',
      c2pa: {},
      ai_watermark_detected: false,
      ai_watermark_issuers: {},
      credits_used: 300,
      credits_remaining: 1700,
    });
    expect(result.metadata).toMatchObject({ format: 'jpeg', width: 512, height: 384, channels: 3, hasAlpha: false });
    expect(await ledger.balance(accountId)).toBe(1700);
    expect(classifier.calls).toHaveLength(1);
    expect(Buffer.from(classifier.calls[0]!.bytes).equals(photo)).toBe(true);
    expect(classifier.calls[0]!.version).toBe('5');
  });

  it('reads a data URL the same as bare base64', async () => {
    const { engine, token } = await setup();
    const bare = (await engine.execute('image-detection', { image: photo.toString('base64') }, { token })).result;
    const dataUrl = (await engine.execute('image-detection', { image: `data:image/jpeg;base64,${photo.toString('base64')}` }, { token })).result;
    expect({ ...dataUrl, credits_remaining: 0 }).toEqual({ ...bare, credits_remaining: 0 });
    expect(dataUrl.credits_remaining).toBe(1400);
  });

  it('reads PNG and WEBP too', async () => {
    const { engine, token } = await setup();
    const png = await syntheticPhoto({ format: 'png' });
    expect((await engine.execute('image-detection', { image: png.toString('base64') }, { token })).result).toMatchObject({
      mime_type: 'image/png',
      metadata: { format: 'png', width: 512, height: 384 },
    });
    const webp = files.get('/photo.webp')!.body;
    expect((await engine.execute('image-detection', { image: webp.toString('base64') }, { token })).result.mime_type).toBe('image/webp');
  });

  it('runs unmetered with what it would cost and no balance', async () => {
    const engine = new Engine({ services: { imageClassifier: new FixedAiImageClassifierDouble(0.7) } });
    const { result, creditsUsed } = await engine.run('image-detection', { image: photo.toString('base64') });
    expect(creditsUsed).toBe(300);
    expect(result).toMatchObject({ score: 30, credits_used: 300 });
    expect('credits_remaining' in result).toBe(false);
  });
});

describe('/v2/image-detection with a url', () => {
  it('fetches the image through the guarded fetcher and analyses the fetched bytes', async () => {
    const { engine, token, classifier } = await setup(0.9);
    const { result } = await engine.execute('image-detection', { url: 'http://images.example.com/photo.jpg' }, { token });
    expect(result).toMatchObject({ score: 10, ai_probability: 0.9, mime_type: 'image/jpeg', metadata: { width: 512, height: 384 }, credits_used: 300 });
    expect(Buffer.from(classifier.calls[0]!.bytes).equals(photo)).toBe(true);
  });

  it('refuses a private or malformed URL with BAD_REQUEST before the balance is read', async () => {
    const { engine, ledger, accountId, token, classifier } = await setup(0.5, 0);
    for (const url of ['http://localhost/a.jpg', 'http://10.1.2.3/a.jpg', 'ftp://images.example.com/a.jpg']) {
      expect((await rejection(engine.execute('image-detection', { url }, { token }))).code).toBe('BAD_REQUEST');
    }
    expect(await ledger.balance(accountId)).toBe(0);
    expect(classifier.calls).toHaveLength(0);
  });

  it('answers FORBIDDEN for a URL that does not serve a JPG, PNG or WEBP image, or cannot be reached', async () => {
    const { engine, ledger, accountId, token } = await setup();
    const page = await rejection(engine.execute('image-detection', { url: 'http://images.example.com/page.html' }, { token }));
    expect(page.code).toBe('FORBIDDEN');
    const missing = await rejection(engine.execute('image-detection', { url: 'http://images.example.com/missing.jpg' }, { token }));
    expect(missing).toMatchObject({ code: 'FORBIDDEN', description: 'The server answered 404 Not Found' });
    expect(await ledger.balance(accountId)).toBe(2000);
  });

  it('refuses a fetched image under 256x256 with BAD_REQUEST naming url', async () => {
    const { engine, token } = await setup();
    const error = await rejection(engine.execute('image-detection', { url: 'http://images.example.com/small.png' }, { token }));
    expect(error).toMatchObject({ code: 'BAD_REQUEST', description: 'url: The image is 200x300 pixels; the minimum is 256x256.' });
  });
});

describe('input errors: BAD_REQUEST, nothing charged, the classifier never called', () => {
  async function expectBadRequest(body: Record<string, unknown>, description: string | RegExp): Promise<void> {
    const { engine, ledger, accountId, token, classifier } = await setup();
    const error = await rejection(engine.execute('image-detection', body, { token }));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.status).toBe(400);
    if (typeof description === 'string') expect(error.description).toBe(description);
    else expect(error.description).toMatch(description);
    expect(await ledger.balance(accountId)).toBe(2000);
    expect(classifier.calls).toHaveLength(0);
  }

  it('neither url nor image', () => expectBadRequest({}, 'url or image is required'));

  it('both url and image', () =>
    expectBadRequest({ url: 'http://images.example.com/photo.jpg', image: photo.toString('base64') }, 'image and url cannot both be given: provide either url or image'));

  it('an empty image', () => expectBadRequest({ image: '' }, 'image must be a non-empty base64 string or data URL'));

  it('malformed base64', () =>
    expectBadRequest({ image: 'this is not base64!' }, 'image: The image string is not valid base64 nor a data:image/...;base64 URL.'));

  it('a data URL of another media type', () =>
    expectBadRequest({ image: `data:text/plain;base64,${Buffer.from('hello').toString('base64')}` }, /^image: The data URL has media type "text\/plain"/));

  it('base64 that is not a JPEG, PNG or WEBP image', () =>
    expectBadRequest({ image: Buffer.from('GIF89a plus some bytes that are not an image').toString('base64') }, /^image: The file is not a JPEG, PNG or WEBP image/));

  it('an image under 256x256 pixels', async () => {
    const small = await syntheticPhoto({ width: 300, height: 255 });
    await expectBadRequest({ image: small.toString('base64') }, 'image: The image is 300x255 pixels; the minimum is 256x256.');
  });

  it('an image over about 4 MB once decoded', async () => {
    const big = await noisePng(1300, 1100);
    expect(big.length).toBeGreaterThan(4 * 1024 * 1024);
    await expectBadRequest({ image: big.toString('base64') }, `image: The image is ${big.length} bytes; the limit is 4194304 bytes (about 4 MB).`);
  });

  it('an unknown version, as a string or a number', async () => {
    const message = 'version must be one of "9", "8", "7", "6", "5", "legacy-5", "4", "3", "2", "1", "latest"';
    await expectBadRequest({ image: photo.toString('base64'), version: '10' }, message);
    await expectBadRequest({ image: photo.toString('base64'), version: 'legacy' }, message);
    await expectBadRequest({ image: photo.toString('base64'), version: 'v5' }, message);
    await expectBadRequest({ image: photo.toString('base64'), version: 0 }, message);
    await expectBadRequest({ image: photo.toString('base64'), version: null }, message);
  });

  it('an unknown version even on an empty account: validated before the balance', async () => {
    const { engine, token } = await setup(0.5, 0);
    expect((await rejection(engine.execute('image-detection', { image: photo.toString('base64'), version: '10' }, { token }))).code).toBe('BAD_REQUEST');
  });
});

describe('version', () => {
  it('defaults to 5, resolves latest to 9, and passes a given version to the classifier', async () => {
    const { engine, token, classifier } = await setup(0.2, 10_000);
    const image = photo.toString('base64');
    const versions: unknown[] = [];
    for (const version of [undefined, 'latest', '9', '8', '7', '6', '5', 'legacy-5', '4', '3', '2', '1']) {
      const body = version === undefined ? { image } : { image, version };
      versions.push((await engine.execute('image-detection', body, { token })).result.version);
    }
    expect(versions).toEqual(['5', '9', '9', '8', '7', '6', '5', 'legacy-5', '4', '3', '2', '1']);
    expect(classifier.calls.map((c) => c.version)).toEqual(['5', '9', '9', '8', '7', '6', '5', 'legacy-5', '4', '3', '2', '1']);
  });

  it('accepts exactly the spec versions, versions 6 to 9 and legacy-5', () => {
    expect([...IMAGE_MODEL_VERSIONS]).toEqual(['9', '8', '7', '6', '5', 'legacy-5', '4', '3', '2', '1', 'latest']);
  });

  it('agrees with the versions the classifier package registers', () => {
    expect([...IMAGE_MODEL_VERSIONS].filter((v) => v !== 'latest').sort()).toEqual([...classifiers.AI_IMAGE_VERSIONS].sort());
    expect(classifiers.resolveAiImageVersion('latest')).toBe(classifiers.LATEST_AI_IMAGE_VERSION);
    expect(classifiers.DEFAULT_AI_IMAGE_VERSION).toBe('5');
  });
});

describe('credits', () => {
  it('PAYMENT_REQUIRED below 300 credits, with nothing analysed or charged', async () => {
    const { engine, ledger, accountId, token, classifier } = await setup(0.5, 299);
    const error = await rejection(engine.execute('image-detection', { image: photo.toString('base64') }, { token }));
    expect(error).toMatchObject({ code: 'PAYMENT_REQUIRED', status: 402 });
    expect(error.description).toBe('Insufficient credits: this request costs 300 credits and the balance is 299.');
    expect(await ledger.balance(accountId)).toBe(299);
    expect(classifier.calls).toHaveLength(0);
  });

  it('UNAUTHORIZED without a valid token', async () => {
    const { engine } = await setup();
    expect((await rejection(engine.execute('image-detection', { image: photo.toString('base64') }, { token: 'ca_nope' }))).code).toBe('UNAUTHORIZED');
  });

  it('charges nothing when the classifier fails: INTERNAL_SERVER_ERROR, or BAD_REQUEST for its caller errors', async () => {
    const boom = await meteredEngine({ services: { imageClassifier: failingClassifierDouble(new Error('model file missing at /srv/models')) } });
    const internal = await rejection(boom.engine.execute('image-detection', { image: photo.toString('base64') }, { token: boom.token }));
    expect(internal).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', description: 'Unexpected error.' });
    expect(await boom.ledger.balance(boom.accountId)).toBe(2000);

    const refusal = Object.assign(new TypeError('Expected a decodable image for image but received a truncated file'), { code: 'BAD_REQUEST' });
    const refused = await meteredEngine({ services: { imageClassifier: failingClassifierDouble(refusal) } });
    const caller = await rejection(refused.engine.execute('image-detection', { image: photo.toString('base64') }, { token: refused.token }));
    expect(caller).toMatchObject({ code: 'BAD_REQUEST', description: 'image: Expected a decodable image for image but received a truncated file' });
    expect(await refused.ledger.balance(refused.accountId)).toBe(2000);
  });
});

describe('the provenance rule', () => {
  it('an IPTC/XMP DigitalSourceType declaring AI generation raises the AI probability to 0.99', async () => {
    const declared = await syntheticPhoto({ xmp: digitalSourceTypeXmp('trainedAlgorithmicMedia') });
    const { engine, token } = await setup(0.2);
    const { result } = await engine.execute('image-detection', { image: declared.toString('base64') }, { token });
    expect(result).toMatchObject({ ai_probability: 0.99, human_probability: 0.01, score: 1, version: '5', ai_watermark_detected: true });
    expect(result.exif).toMatchObject({ DigitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia' });
    expect(result.ai_watermark_issuers).toEqual({
      'IPTC DigitalSourceType': {
        strength: 'strong',
        signals: [{ signal: 'xmp_digital_source_type', strength: 'strong', evidence: 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia' }],
      },
    });
  });

  it('never lowers a higher classifier probability', async () => {
    const declared = await syntheticPhoto({ xmp: digitalSourceTypeXmp('compositeWithTrainedAlgorithmicMedia') });
    const { engine, token } = await setup(0.996);
    const { result } = await engine.execute('image-detection', { image: declared.toString('base64') }, { token });
    expect(result).toMatchObject({ ai_probability: 0.996, score: 0 });
  });

  it('a source type that is not generative AI changes nothing', async () => {
    const digital = await syntheticPhoto({ xmp: digitalSourceTypeXmp('digitalCapture') });
    const { engine, token } = await setup(0.2);
    const { result } = await engine.execute('image-detection', { image: digital.toString('base64') }, { token });
    expect(result).toMatchObject({ ai_probability: 0.2, score: 80, ai_watermark_detected: false });
  });

  it('a generator named in the EXIF Software raises the AI probability to 0.9', async () => {
    const traced = await syntheticPhoto({ software: 'Midjourney v6' });
    const { engine, token } = await setup(0.2);
    const { result } = await engine.execute('image-detection', { image: traced.toString('base64') }, { token });
    expect(result).toMatchObject({ ai_probability: 0.9, human_probability: 0.1, score: 10 });
    expect(result.ai_watermark_issuers).toMatchObject({ Midjourney: { strength: 'moderate' } });
  });

  it.skipIf(!C2PA_AI_DECLARATION)('a C2PA manifest declaring AI generation overrides the pixels', async () => {
    const bytes = readFileSync(C2PA_AI_DECLARATION!);
    const { engine, token } = await setup(0.05);
    const { result } = await engine.execute('image-detection', { image: bytes.toString('base64') }, { token });
    expect(imageDetectionResult.safeParse(result).success).toBe(true);
    expect(result).toMatchObject({ ai_probability: 0.99, score: 1, mime_type: 'image/jpeg', metadata: { width: 1000, height: 700 } });
    const c2pa = result.c2pa as { active_manifest?: { claim_generator?: string }; validation_state?: string };
    expect(c2pa.validation_state).toBe('valid');
    expect(typeof c2pa.active_manifest?.claim_generator).toBe('string');
    const signals = Object.values(result.ai_watermark_issuers as Record<string, { signals: Array<{ signal: string; evidence: string }> }>).flatMap((v) => v.signals);
    expect(signals.some((s) => s.signal === 'c2pa_digital_source_type' && /TrainedAlgorithmicMedia/.test(s.evidence))).toBe(true);
  });

  it.skipIf(!SD2_WATERMARK)('a decoded Stable Diffusion invisible watermark overrides the pixels', async () => {
    const bytes = readFileSync(SD2_WATERMARK!);
    const { engine, token } = await setup(0.1);
    const { result } = await engine.execute('image-detection', { image: bytes.toString('base64') }, { token });
    expect(result).toMatchObject({ ai_probability: 0.99, score: 1, mime_type: 'image/png' });
    const issuers = result.ai_watermark_issuers as Record<string, { signals: Array<{ signal: string }> }>;
    expect(Object.values(issuers).flatMap((v) => v.signals.map((s) => s.signal))).toEqual(['invisible_watermark']);
    expect('invisible_watermark' in result).toBe(false);
  });
});

describe('routes', () => {
  it('serves /v2/image-detection and /v1/image-detection with the same feature', async () => {
    const engine = new Engine();
    expect(engine.features.byRoute('/v2/image-detection')?.id).toBe('image-detection');
    expect(engine.features.byRoute('/v1/image-detection')?.id).toBe('image-detection');
    expect(engine.features.byTool('ai-image-detection')?.id).toBe('image-detection');
    const paths = (openApiDocument(engine.features) as { paths: Record<string, { post: { operationId: string; requestBody: any } }> }).paths;
    expect(paths['/v2/image-detection']!.post.operationId).toBe('image-detection');
    expect(paths['/v1/image-detection']!.post.operationId).toBe('image-detection-v1');
    expect(paths['/v1/image-detection']!.post.requestBody).toEqual(paths['/v2/image-detection']!.post.requestBody);
  });
});

describe.skipIf(!realClassifierAvailable())('with the real default classifier (no injection)', () => {
  it('classifies a photo: probabilities in [0, 1] summing to 1, score from the human probability, version 5', async () => {
    const { engine, token } = await meteredEngine();
    const { result } = await engine.execute('image-detection', { image: photo.toString('base64') }, { token });
    expect(imageDetectionResult.strict().safeParse(result).success).toBe(true);
    expect(result.version).toBe('5');
    const ai = result.ai_probability as number;
    const human = result.human_probability as number;
    expect(ai).toBeGreaterThanOrEqual(0);
    expect(ai).toBeLessThanOrEqual(1);
    expect(ai + human).toBeCloseTo(1, 6);
    expect(result.score).toBe(Math.round(100 * human));
    expect(result.credits_used).toBe(300);
  });

  it('reports version 1 when asked, gives latest the result of version 9 and the default that of version 5 (model 9)', async () => {
    const { engine, token } = await meteredEngine();
    const png = (await sharp(photo).png().toBuffer()).toString('base64');
    const oldest = (await engine.execute('image-detection', { image: png, version: '1' }, { token })).result;
    expect(oldest.version).toBe('1');
    const latest = (await engine.execute('image-detection', { image: png, version: 'latest' }, { token })).result;
    const nine = (await engine.execute('image-detection', { image: png, version: '9' }, { token })).result;
    expect(latest.version).toBe('9');
    expect({ ...nine, credits_remaining: 0 }).toEqual({ ...latest, credits_remaining: 0 });
    const byDefault = (await engine.execute('image-detection', { image: png }, { token })).result;
    const five = (await engine.execute('image-detection', { image: png, version: '5' }, { token })).result;
    expect(byDefault.version).toBe('5');
    expect({ ...byDefault, credits_remaining: 0 }).toEqual({ ...five, credits_remaining: 0 });
    // Version 5 answers with model 9's numbers; the model that answered as 5 before model 8 is legacy-5.
    expect({ ...five, version: '9', credits_remaining: 0 }).toEqual({ ...nine, credits_remaining: 0 });
    const legacy = (await engine.execute('image-detection', { image: png, version: 'legacy-5' }, { token })).result;
    expect(legacy.version).toBe('legacy-5');
    for (const r of [oldest, latest, byDefault, legacy]) {
      const distance = Math.abs((r.ai_probability as number) - 0.5);
      expect(r.confidence).toBe(distance < 0.1 ? 'low' : distance < 0.3 ? 'medium' : 'high');
    }
  }, 120_000);

  it.skipIf(!C2PA_AI_DECLARATION)('scores an image whose C2PA manifest declares AI generation at most 1', async () => {
    const { engine, token } = await meteredEngine();
    const { result } = await engine.execute('image-detection', { image: readFileSync(C2PA_AI_DECLARATION!).toString('base64') }, { token });
    expect(result.score).toBeLessThanOrEqual(1);
    expect(result.ai_probability).toBeGreaterThanOrEqual(0.99);
  }, 120_000);
});
