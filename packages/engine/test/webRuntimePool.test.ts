import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/index.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DEMO = join(ROOT, 'fixtures', 'demo');
const TEXTS = [readFileSync(join(DEMO, 'assistant-answer.txt'), 'utf8'), readFileSync(join(DEMO, 'personal-note.txt'), 'utf8')];
const VERSIONS = ['2.0.0', '2.1.0'];

// A process that runs on onnxruntime-web (CONTENT_ANALYSIS_ONNX_RUNTIME=web, which the analysis pool's worker
// threads read from the environment Node copies to them): AI text in two worker threads at once, then the native
// addons the process loaded.
const CHILD = `
const { AnalysisPool, Engine } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'packages', 'engine', 'dist', 'index.js')).href)});
const pool = new AnalysisPool({ threads: 2 });
const engine = new Engine({ analysis: { pool } });
const texts = JSON.parse(process.env.TEXTS);
const versions = JSON.parse(process.env.VERSIONS);
const runs = versions.flatMap((version) => texts.map((text) => engine.run('ai-content-detection', { text, version, sentences: true })));
const results = (await Promise.all(runs)).map(({ result }) => [result.score, ...result.sentences.map((s) => s.score)]);
await pool.close();
const addons = process.report.getReport().sharedObjects.filter((file) => file.endsWith('.node'));
console.log(JSON.stringify({ results, addons }));
process.exit(0);
`;

describe('the analysis pool on onnxruntime-web', () => {
  it('answers AI text from two worker threads with the scores of onnxruntime-node, no native addon loaded', async () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD], {
      encoding: 'utf8', timeout: 120_000,
      env: { ...process.env, CONTENT_ANALYSIS_ONNX_RUNTIME: 'web', TEXTS: JSON.stringify(TEXTS), VERSIONS: JSON.stringify(VERSIONS) },
    });
    const web = JSON.parse(out.trim().split('\n').at(-1)!) as { results: number[][]; addons: string[] };
    expect(web.addons).toEqual([]);
    const native = new Engine({ analysis: { mode: 'thread' } });
    let i = 0;
    for (const version of VERSIONS) {
      for (const text of TEXTS) {
        const { result } = await native.run('ai-content-detection', { text, version, sentences: true });
        const expected = [result.score, ...result.sentences!.map((s) => s.score)];
        expect(web.results[i]!.length).toBe(expected.length);
        // Scores 0..100: within 1e-5 as probabilities.
        expected.forEach((score, j) => expect(Math.abs(web.results[i]![j]! - score) / 100).toBeLessThanOrEqual(1e-5));
        i++;
      }
    }
  }, 150_000);
});
