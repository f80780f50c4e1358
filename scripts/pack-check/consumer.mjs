// What a team that installed the packed tarballs runs (scripts/pack-check.mjs copies it into the scratch project
// with fixtures/documents/hostile/many-pages.pdf). One JSON line per check: {name, ok, detail}.
import { readFileSync } from 'node:fs';

const report = (name, ok, detail = '') => console.log(JSON.stringify({ name, ok, detail }));
const addons = () => process.report.getReport().sharedObjects.filter((file) => file.endsWith('.node'));
const unhandled = [];
process.on('unhandledRejection', (reason) => unhandled.push(reason));

const engineModule = await import('@content-analysis/engine');
const engine = new engineModule.Engine();

// Text compare only: no native addon may have been loaded.
const { result: compared } = await engine.run('text-compare', { first_text: 'the cat sat on the mat', second_text: 'the cat lay on the mat' });
report('engine.run text-compare (README call)', compared.similarity_score > 0 && compared.similarity_score < 100, `similarity_score ${compared.similarity_score}`);
const loaded = addons();
report('no .node addon after importing the engine and running text compare', loaded.length === 0, loaded.length ? loaded.join(', ') : 'sharedObjects holds none');

// AI text detection and AI image detection through the engine.
const text = readFileSync(new URL('./node_modules/@content-analysis/engine/README.md', import.meta.url), 'utf8').slice(0, 2_000);
const { result: aiText } = await engine.run('ai-content-detection', { text });
report('engine.run ai-content-detection', typeof aiText.score === 'number' && aiText.score >= 0 && aiText.score <= 100, `score ${aiText.score}`);
// The models run on onnxruntime-node where npm installed it, else on onnxruntime-web (no native addon).
const { onnxRuntimeName } = await import('@content-analysis/onnx');
const runtime = onnxRuntimeName();
const onnxAddons = addons().filter((file) => file.includes('onnxruntime'));
const expectedRuntime = process.env.PACK_CHECK_EXPECTED_ONNX_RUNTIME;
report('AI text runs on the ONNX runtime npm installed', runtime === expectedRuntime && (runtime === 'node') === (onnxAddons.length > 0),
  `onnxruntime-${runtime} (expected ${expectedRuntime}); onnxruntime addons loaded: ${onnxAddons.length ? onnxAddons.join(', ') : 'none'}`);
const image = readFileSync(new URL('./evening-harbour.jpg', import.meta.url)).toString('base64');
const { result: aiImage } = await engine.run('image-detection', { image });
report('engine.run image-detection', typeof aiImage.score === 'number', `score ${aiImage.score}, ai_generated ${aiImage.ai_generated}`);
// Versions that are neither a default nor `latest` live in @content-analysis/models-extra, which this project did not
// install: asking for one is refused with the package to install, never answered by another model.
const refusal = (promise) => promise.then(({ result }) => ({ answered: result.version }), (error) => error);
const notInstalled = (error) => error?.code === 'BAD_REQUEST' && error.status === 400 && error.cause?.code === 'MODEL_NOT_INSTALLED' &&
  error.message.endsWith('npm install @content-analysis/models-extra');
const image7 = await refusal(engine.run('image-detection', { image, version: '7' }));
report('image-detection version 7 without @content-analysis/models-extra: 400 naming the package', notInstalled(image7),
  image7.answered ? `answered version ${image7.answered}` : `${image7.status} ${image7.code}: ${image7.message}`);
const text210 = await refusal(engine.run('ai-content-detection', { text, version: '2.1.0' }));
report('ai-content-detection version 2.1.0 without @content-analysis/models-extra: 400 naming the package', notInstalled(text210),
  text210.answered ? `answered version ${text210.answered}` : `${text210.status} ${text210.code}: ${text210.message}`);

// Building block 1: text-compare on its own.
const { compareTexts } = await import('@content-analysis/text-compare');
const direct = compareTexts('the cat sat on the mat', 'the cat lay on the mat');
report('@content-analysis/text-compare compareTexts', direct.similarity_score === compared.similarity_score, `similarity_score ${direct.similarity_score}`);

// Building block 2: documents, on a hostile PDF whose page-tree kid has a broken xref entry.
const { extractPdf, DocumentError } = await import('@content-analysis/documents');
const good = await extractPdf(readFileSync(new URL('./two-column.pdf', import.meta.url)));
report('@content-analysis/documents extractPdf', good.text.length > 500, `${good.text.length} characters, ${good.pages.length} pages`);
const hostile = Buffer.from(readFileSync(new URL('./many-pages.pdf', import.meta.url)));
hostile[221_486] = 0x68; // object 1924: `obj` -> `obh`
hostile[251_977] = 0x33; // its xref offset -> `0000131369`
const outcome = await extractPdf(hostile).then(() => 'read', (error) => (error instanceof DocumentError ? `DocumentError ${error.code}` : `other error ${error}`));
await new Promise((resolve) => setTimeout(resolve, 500));
report('hostile PDF leaves no unhandled rejection', unhandled.length === 0 && outcome !== 'read' && !outcome.startsWith('other'),
  `${outcome}; unhandled rejections: ${unhandled.length ? unhandled.map(String).join('; ') : 'none'}`);

// Building block 3: image-metadata on the demo photograph.
const { extractImageMetadata } = await import('@content-analysis/image-metadata');
const metadata = await extractImageMetadata(readFileSync(new URL('./evening-harbour.jpg', import.meta.url)), { decodeWatermark: false });
report('@content-analysis/image-metadata extractImageMetadata', metadata.mime_type === 'image/jpeg' && metadata.errors.length === 0,
  `${metadata.mime_type}, ${Object.keys(metadata.exif).length} exif fields, errors ${JSON.stringify(metadata.errors)}`);
// A C2PA-signed file (from the datasets, when pack-check found them) must read as valid from the installed reader.
let signed;
try {
  signed = readFileSync(new URL('./c2pa-signed.jpg', import.meta.url));
} catch {
  report('C2PA-signed file reads as valid', true, 'skipped: no signed fixture (CONTENT_ANALYSIS_DATASETS has no c2pa-sdk-fixtures)');
}
if (signed) {
  const { c2pa } = await extractImageMetadata(signed, { decodeWatermark: false });
  report('C2PA-signed file reads as valid', c2pa.validation_state === 'valid', `validation_state ${c2pa.validation_state}, ${Object.keys(c2pa.manifests ?? {}).length} manifests`);
}

// better-sqlite3 is an optional peer dependency, not installed here: the SQLite ledger says so, by code.
const { MemoryLedger, SqliteLedger } = await import('@content-analysis/credits');
const sqlite = (() => {
  try {
    new SqliteLedger({ path: ':memory:' });
    return 'opened';
  } catch (error) {
    return error.code;
  }
})();
report('SqliteLedger without better-sqlite3 answers ERR_SQLITE_UNAVAILABLE', sqlite === 'ERR_SQLITE_UNAVAILABLE', String(sqlite));
const ledger = new MemoryLedger();
const account = await ledger.createAccount();
const { token } = await ledger.createToken(account.id);
const metered = await new engineModule.Engine({ ledger }).execute('text-compare', { first_text: 'a b c', second_text: 'a b d' }, { token });
report('engine.execute with a MemoryLedger (README call)', metered.result.credits_used === 3 && metered.result.credits_remaining === 1997,
  `credits_used ${metered.result.credits_used}, credits_remaining ${metered.result.credits_remaining}`);
process.exit(0);
