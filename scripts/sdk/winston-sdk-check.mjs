// Runs the six methods of the official Winston AI Node SDK (built by scripts/sdk/build-winston-sdk.mjs) against this
// project's HTTP API on 127.0.0.1, with only the fields a caller must give (the SDK's defaults for the rest), and once
// with `version: 'latest'` as the SDK documents it. Image URLs are served by a local host the engine dials in place
// of a public address (the address policy itself is unchanged). Exits 1 if any call fails.
// Usage: npm run setup && node scripts/sdk/build-winston-sdk.mjs && node scripts/sdk/winston-sdk-check.mjs
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const sdk = new URL('../../.data/winston-sdk/dist/index.js', import.meta.url).pathname;
if (!existsSync(sdk)) {
  // Not a pass: nothing was checked. Exit 2 (not 0), so that no script or CI step reads this as success.
  console.error(`NOT RUN: the Winston SDK build ${sdk} is missing; build it with node scripts/sdk/build-winston-sdk.mjs ` +
    '(it needs the SDK repository, which is not on the npm registry)');
  process.exit(2);
}
const { WinstonAIClient, WinstonAIError } = require(sdk);
const { Engine, builtinFeatures } = await import('../../packages/engine/dist/index.js');
const { createApiServer, listen } = await import('../../packages/server/dist/index.js');
const { MemoryLedger } = await import('../../packages/credits/dist/index.js');
const { SourceIndex } = await import('../../packages/plagiarism/dist/index.js');
const { EvidenceStore } = await import('../../packages/fact-check/dist/index.js');
const { CustomModels } = await import('../../packages/classifiers/dist/index.js');
const { writeImageModel, writeTextModel } = await import('../custom-model/testModels.mjs');
const { mkdtempSync, rmSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');

const image = readFileSync(new URL('../../fixtures/demo/evening-harbour.jpg', import.meta.url));
const host = createServer((req, res) => { res.writeHead(200, { 'content-type': 'image/jpeg' }); res.end(image); });
await new Promise((r) => host.listen(0, '127.0.0.1', r));
const hostPort = host.address().port;
const SOURCE = 'The lighthouse keeper climbed the spiral stairs every evening at dusk to light the lamp. In winter storms the waves rose higher than the rocks, and salt spray coated the windows of the lantern room.';
const plagiarismIndex = SourceIndex.open();
plagiarismIndex.add({ url: 'https://history.example.org/lighthouse', title: 'The keeper', text: SOURCE });
const evidenceStore = new EvidenceStore([{ url: 'https://encyclopedia.example.org/eiffel', title: 'Eiffel Tower', text: 'The Eiffel Tower was completed in 1889 as the entrance to the World Fair. The tower is 330 metres tall.' }]);
// Two plugged test models (scripts/custom-model/testModels.mjs), selected with version "custom:NAME" through the SDK.
const modelsDir = mkdtempSync(join(tmpdir(), 'sdk-models-'));
writeTextModel(join(modelsDir, 'text'));
writeImageModel(join(modelsDir, 'image'));
const customModels = await CustomModels.load({ 'test-text': join(modelsDir, 'text'), 'test-image': join(modelsDir, 'image') });
const ledger = new MemoryLedger();
const engine = new Engine({ ledger, features: builtinFeatures(), services: { plagiarismIndex, evidenceStore }, customModels,
  // the image URL's host "resolves" to a public address and is dialled on the local image host
  fetch: { resolve: async () => [{ address: '93.184.216.34', family: 4 }], dial: () => ({ host: '127.0.0.1', port: hostPort }) } });
const server = createApiServer({ engine, rateLimit: false, log: () => undefined });
const { url } = await listen(server, 0);
const account = await ledger.createAccount({ credits: 100000 });
const { token } = await ledger.createToken(account.id);
const client = new WinstonAIClient(token, { maxRetries: 0 });
client.httpsClient.baseUrl = `${url}/v2`; // the SDK's base URL is a constant; everything else is the SDK's own
const essay = 'My grandmother kept bees behind the shed for almost forty years, and every August the whole house smelled of wax. She never wore gloves. When I asked her why, she said the bees knew her hands better than she did, which made no sense to me at nine and makes only a little more sense now. The honey was dark, almost bitter some years.';
const calls = {
  detectText: () => client.detectText({ text: essay }),
  detectTextLatest: () => client.detectText({ text: essay, version: 'latest', sentences: true, language: 'auto' }),
  detectImage: () => client.detectImage({ url: 'http://images.example.org/harbour.jpg' }),
  detectAdvancedImage: () => client.detectAdvancedImage({ image_url: 'http://images.example.org/harbour.jpg' }),
  checkPlagiarism: () => client.checkPlagiarism({ text: `Coastal life depended on care. ${SOURCE} Nobody thought it heroic.` }),
  checkFact: () => client.checkFact({ text: 'The Eiffel Tower was completed in 1889 for the World Fair in Paris. It is about 330 metres tall and was the tallest structure in the world until 1930. Millions of people visit the tower every year, and it has become a global symbol of France and of engineering in the nineteenth century, drawing crowds in every season.' }),
  compareText: () => client.compareText({ first_text: 'The cat sat on the mat.', second_text: 'The cat sat on a mat.' }),
  // The plugged models: the SDK passes version through, and the answer is the model's own (rounded as the API rounds).
  detectTextCustom: async () => {
    const r = await client.detectText({ text: essay, version: 'custom:test-text' });
    const own = await customModels.text('custom:test-text').detect(essay);
    if (r.version !== 'custom:test-text' || r.score !== Math.round(own.score * 100) / 100) throw new Error(`custom text: ${r.version} ${r.score}, model ${own.score}`);
    return r;
  },
  detectImageCustom: async () => {
    const r = await client.detectImage({ url: 'http://images.example.org/harbour.jpg', version: 'custom:test-image' });
    const own = await customModels.image('custom:test-image').classify(image);
    if (r.version !== 'custom:test-image' || r.score !== own.score || r.ai_probability !== own.ai_probability) throw new Error(`custom image: ${JSON.stringify(r).slice(0, 200)}`);
    return r;
  },
  badRequest: () => client.detectText({ text: 'too short' }),
};
let failed = 0;
for (const [name, call] of Object.entries(calls)) {
  try {
    const r = await call();
    const keys = Object.keys(r).sort().join(',');
    console.log(`${name}: ok status=${r.status ?? '-'}${r.version === undefined ? '' : ` version=${r.version}`} keys=${keys.slice(0, 160)}`);
    if (name === 'badRequest') failed++;
  } catch (e) {
    const ok = name === 'badRequest' && e instanceof WinstonAIError;
    console.log(`${name}: ${ok ? 'refused as expected' : 'FAILED'} ${e.constructor.name} ${e.status ?? ''} ${e.error ?? ''} ${e.description ?? e.message}`);
    if (!ok) failed++;
  }
}
console.log(`balance left ${await ledger.balance(account.id)}; ${failed} failed`);
server.closeAllConnections(); server.close(); host.close(); await engine.close?.(); await customModels.release();
rmSync(modelsDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
