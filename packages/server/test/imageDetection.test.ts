import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { builtinFeatures } from '@content-analysis/engine';
import { json, startHarness } from './harness.js';
import type { Harness } from './harness.js';
import { AI_DECLARATION_XMP, FixedAiImageClassifierDouble, gradientPng, imageHost, noisePng } from './testImage.js';

const PHOTO = gradientPng(320, 288);
const DECLARED = gradientPng(320, 288, { xmp: AI_DECLARATION_XMP });

let host: Awaited<ReturnType<typeof imageHost>>;
let h: Harness;
/** The classifier is a test double answering 0.2 for every image; these tests are about the server around it. */
const classifier = new FixedAiImageClassifierDouble(0.2);
beforeAll(async () => {
  host = await imageHost({ '/photo.png': PHOTO, '/declared.png': DECLARED });
  h = await startHarness({ features: builtinFeatures(), fetch: host.fetch, services: { imageClassifier: classifier }, credits: 5000 });
});
afterAll(async () => {
  await h.stop();
  await host.close();
});

describe('POST /v2/image-detection and /v1/image-detection', () => {
  it('answers the image detection result for a base64 image and charges 300 credits', async () => {
    const before = await h.ledger.balance(h.accountId);
    const response = await h.post('/v2/image-detection', { image: PHOTO.toString('base64') });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({
      score: 80,
      human_probability: 0.8,
      ai_probability: 0.2,
      version: '5',
      mime_type: 'image/png',
      metadata: { format: 'png', width: 320, height: 288 },
      ai_watermark_detected: false,
      credits_used: 300,
      credits_remaining: before - 300,
    });
    expect('status' in body).toBe(false);
    expect(await h.ledger.balance(h.accountId)).toBe(before - 300);
  });

  it('serves the same request and result on /v1/image-detection', async () => {
    const v2 = await json(await h.post('/v2/image-detection', { url: 'http://images.example.com/photo.png', version: 'latest' }));
    const v1Response = await h.post('/v1/image-detection', { url: 'http://images.example.com/photo.png', version: 'latest' });
    expect(v1Response.status).toBe(200);
    const v1 = await json(v1Response);
    expect(v1.credits_remaining).toBe(v2.credits_remaining - 300);
    expect({ ...v1, credits_remaining: 0 }).toEqual({ ...v2, credits_remaining: 0 });
  });

  it('reports the provenance override: an IPTC declaration of AI generation gives a score of 1', async () => {
    const body = await json(await h.post('/v2/image-detection', { image: `data:image/png;base64,${DECLARED.toString('base64')}`, version: '4' }));
    expect(body).toMatchObject({ score: 1, ai_probability: 0.99, version: '4', ai_watermark_detected: true });
    expect(Object.keys(body.ai_watermark_issuers)).toEqual(['IPTC DigitalSourceType']);
  });

  it('answers 400 BAD_REQUEST bodies for bad input on both paths, charging nothing', async () => {
    const before = await h.ledger.balance(h.accountId);
    for (const path of ['/v2/image-detection', '/v1/image-detection']) {
      const neither = await h.post(path, { version: '5' });
      expect(neither.status).toBe(400);
      expect(await json(neither)).toEqual({ status: 400, error: 'BAD_REQUEST', description: 'url or image is required' });
      const version = await h.post(path, { image: PHOTO.toString('base64'), version: 'turbo' });
      expect(await json(version)).toEqual({ status: 400, error: 'BAD_REQUEST', description: 'version must be one of "9", "8", "7", "6", "5", "legacy-5", "4", "3", "2", "1", "latest"' });
      const small = await h.post(path, { image: gradientPng(255, 400).toString('base64') });
      expect(await json(small)).toEqual({ status: 400, error: 'BAD_REQUEST', description: 'image: The image is 255x400 pixels; the minimum is 256x256.' });
    }
    expect(await h.ledger.balance(h.accountId)).toBe(before);
  });

  it('reads a base64 body past the 2 MiB default limit, and refuses an image over 4 MB with BAD_REQUEST', async () => {
    const large = noisePng(1000, 900);
    const accepted = await h.post('/v2/image-detection', { image: large.toString('base64') });
    expect(accepted.status).toBe(200);
    expect((await json(accepted)).metadata).toMatchObject({ width: 1000, height: 900 });
    const tooLarge = noisePng(1300, 1100);
    const refused = await h.post('/v2/image-detection', { image: tooLarge.toString('base64') });
    expect(await json(refused)).toEqual({
      status: 400,
      error: 'BAD_REQUEST',
      description: `image: The image is ${tooLarge.length} bytes; the limit is 4194304 bytes (about 4 MB).`,
    });
    const overBody = await h.post('/v2/image-detection', { image: 'A'.repeat(9 * 1024 * 1024) });
    expect(await json(overBody)).toEqual({ status: 400, error: 'BAD_REQUEST', description: 'The request body exceeds the limit of 8 MiB for this endpoint.' });
  });

  it('answers 402 PAYMENT_REQUIRED for an account under 300 credits and 401 without a token', async () => {
    const poor = await h.ledger.createAccount({ credits: 299 });
    const { token } = await h.ledger.createToken(poor.id);
    const response = await h.post('/v2/image-detection', { image: PHOTO.toString('base64') }, { token });
    expect(response.status).toBe(402);
    expect((await json(response)).error).toBe('PAYMENT_REQUIRED');
    expect(await h.ledger.balance(poor.id)).toBe(299);
    const anonymous = await h.post('/v1/image-detection', { image: PHOTO.toString('base64') }, { token: null });
    expect(anonymous.status).toBe(401);
    expect((await json(anonymous)).error).toBe('UNAUTHORIZED');
  });
});

describe('the ai-image-detection tool', () => {
  /** Runs `use` with an MCP SDK client connected to the tool server, closing it afterwards. */
  async function withClient(headers: Record<string, string>, use: (client: Client) => Promise<void>): Promise<void> {
    const client = new Client({ name: 'content-analysis-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp/v1`), { requestInit: { headers } }));
    try {
      await use(client);
    } finally {
      await client.close();
    }
  }

  it('is listed with its url argument and its cost', async () => {
    await withClient({}, async (client) => {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'ai-image-detection')!;
      expect(tool.title).toBe('AI Image Detection');
      expect(tool.description).toMatch(/Cost: 300 credits per image\.$/);
      expect(tool.inputSchema.required).toEqual(['url']);
      expect(tool.inputSchema.properties).toMatchObject({ url: { type: 'string' }, apiKey: { type: 'string' } });
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    });
  });

  it('answers a summary line and the REST result, charging what REST charges', async () => {
    await withClient({ authorization: `Bearer ${h.token}` }, async (client) => {
      const before = await h.ledger.balance(h.accountId);
      const result = await client.callTool({ name: 'ai-image-detection', arguments: { url: 'http://images.example.com/photo.png' } });
      expect(result.isError).toBeFalsy();
      const [summary, text] = (result.content as Array<{ text: string }>)[0]!.text.split('\n');
      expect(summary).toBe('Human score 80 of 100 (likely human), model version 5, 300 credits.');
      const body = JSON.parse(text!);
      expect(body).toMatchObject({ score: 80, credits_used: 300, credits_remaining: before - 300 });
      const rest = await json(await h.post('/v2/image-detection', { url: 'http://images.example.com/photo.png' }));
      expect({ ...rest, credits_remaining: 0 }).toEqual({ ...body, credits_remaining: 0 });
      expect(await h.ledger.balance(h.accountId)).toBe(before - 600);
    });
  });

  it('says in the summary when the file declares AI generation, with an apiKey argument', async () => {
    await withClient({}, async (client) => {
      const result = await client.callTool({ name: 'ai-image-detection', arguments: { url: 'http://images.example.com/declared.png', apiKey: h.token } });
      const summary = (result.content as Array<{ text: string }>)[0]!.text.split('\n')[0];
      expect(summary).toBe('Human score 1 of 100 (likely AI-generated; the file declares AI generation: IPTC DigitalSourceType), model version 5, 300 credits.');
    });
  });

  it('answers a URL that is not public as a tool error, charging nothing', async () => {
    await withClient({ authorization: `Bearer ${h.token}` }, async (client) => {
      const before = await h.ledger.balance(h.accountId);
      const result = await client.callTool({ name: 'ai-image-detection', arguments: { url: 'http://127.0.0.1/photo.png' } });
      expect(result.isError).toBe(true);
      expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ status: 400, error: 'BAD_REQUEST' });
      const missing = await client.callTool({ name: 'ai-image-detection', arguments: {} });
      expect(JSON.parse((missing.content as Array<{ text: string }>)[0]!.text)).toEqual({ status: 400, error: 'BAD_REQUEST', description: 'url is required' });
      expect(await h.ledger.balance(h.accountId)).toBe(before);
    });
  });
});
