import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeImage, kernelRegistry } from '@content-analysis/forensics';
import { Engine } from '../src/index.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const TEXT = readFileSync(join(ROOT, 'fixtures', 'demo', 'assistant-answer.txt'), 'utf8');
const PHOTO = join(ROOT, 'fixtures', 'demo', 'evening-harbour.jpg');
const built = (name: string) => JSON.stringify(pathToFileURL(join(ROOT, 'packages', name, 'dist', 'index.js')).href);

// What a process started with Node flags that worker threads refuse asks of the three kinds of worker threads: the
// engine's analysis pool (AI text), the forensic kernels' pool and the watermark decoder's thread.
const CHILD = `
import { readFileSync } from 'node:fs';
const { Engine } = await import(${built('engine')});
const { ForensicsPool, decodeImage } = await import(${built('forensics')});
const { extractImageMetadata } = await import(${built('image-metadata')});
const failed = (error) => 'failed: ' + (error.code ?? error.name) + ' ' + error.message;
const ai = await new Engine().run('ai-content-detection', { text: process.env.TEXT }).then((r) => r.result.score, failed);
const pool = new ForensicsPool({ threads: 1 });
const bytes = readFileSync(process.env.PHOTO);
const kernel = await pool.run('wavelet-noise', { image: await decodeImage(bytes) }).then((r) => r.score, failed);
await pool.close();
const metadata = await extractImageMetadata(bytes).then((m) => m.errors, failed);
console.log(JSON.stringify({ ai, kernel, metadata, gc: typeof gc }));
process.exit(0);
`;

describe('Node flags a worker thread refuses', () => {
  it('leave AI text, a forensic kernel and the watermark decoder answering under --expose-gc and a heap limit', async () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=3072', '--input-type=module', '-e', CHILD], {
      encoding: 'utf8', env: { ...process.env, TEXT, PHOTO }, timeout: 120_000,
    });
    const answered = JSON.parse(out.trim().split('\n').at(-1)!) as { ai: unknown; kernel: unknown; metadata: unknown; gc: string };
    const expected = await new Engine({ analysis: { mode: 'thread' } }).run('ai-content-detection', { text: TEXT });
    expect(answered.ai).toBe(expected.result.score);
    const image = await decodeImage(readFileSync(PHOTO));
    expect(answered.kernel).toBe(kernelRegistry['wavelet-noise'].run({ image }).score);
    expect(answered.metadata).toEqual([]);
    expect(answered.gc).toBe('function');
  }, 150_000);
});
