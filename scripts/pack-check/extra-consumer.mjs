// What a team that also installed @content-analysis/models-extra runs (scripts/pack-check.mjs, after `npm install` of
// its tarball): the versions it holds answer as themselves, the backbone ones (2: MobileNetV2) from its vendored
// nsfwjs weights. One JSON line per check: {name, ok, detail}.
import { readFileSync } from 'node:fs';

const report = (name, ok, detail = '') => console.log(JSON.stringify({ name, ok, detail }));
const { Engine } = await import('@content-analysis/engine');
const engine = new Engine();
const image = readFileSync(new URL('./evening-harbour.jpg', import.meta.url)).toString('base64');
for (const version of ['7', '2']) {
  const outcome = await engine.run('image-detection', { image, version }).then(({ result }) => result, (error) => error);
  report(`with models-extra: image-detection version ${version} answers as ${version}`, outcome.version === version && typeof outcome.score === 'number',
    outcome instanceof Error ? `${outcome.code}: ${outcome.message}` : `version ${outcome.version}, score ${outcome.score}`);
}
const text = readFileSync(new URL('./node_modules/@content-analysis/engine/README.md', import.meta.url), 'utf8').slice(0, 2_000);
const outcome = await engine.run('ai-content-detection', { text, version: '2.1.0' }).then(({ result }) => result, (error) => error);
report('with models-extra: ai-content-detection version 2.1.0 answers as 2.1.0', outcome.version === '2.1.0' && typeof outcome.score === 'number',
  outcome instanceof Error ? `${outcome.code}: ${outcome.message}` : `version ${outcome.version}, score ${outcome.score}`);
