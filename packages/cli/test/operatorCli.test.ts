import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/index.js';
import { captureIo } from './io.js';

const dir = mkdtempSync(join(tmpdir(), 'ca-operator-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ESSAY = 'Coastal life has always depended on small acts of care. The lighthouse keeper climbed the spiral stairs every ' +
  'evening at dusk to light the lamp. Nobody in the village thought of this as heroic; it was simply the job.';

async function run(argv: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo(stdin);
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

describe('a check with nothing to compare against', () => {
  it('plagiarism without --sources or --index warns on standard error and exits 1, printing no score', async () => {
    const { code, out, err } = await run(['plagiarism', '-'], ESSAY);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toBe('content-analysis: plagiarism: nothing to compare against; give --sources <folder|jsonl> or --index <file>\n');
  });

  it('plagiarism against an empty index says so', async () => {
    const { code, err } = await run(['plagiarism', '-', '--index', join(dir, 'empty.sqlite')], ESSAY);
    expect(code).toBe(1);
    expect(err).toMatch(/the index is empty and no --sources were given/);
  });

  it('fact-check without --evidence warns and exits 1, and so does a batch', async () => {
    const single = await run(['fact-check', '-'], ESSAY);
    expect(single.code).toBe(1);
    expect(single.out).toBe('');
    expect(single.err).toBe('content-analysis: fact-check: no evidence to check against; give --evidence <folder|jsonl>\n');
    const batch = await run(['fact-check', '--jsonl'], `${JSON.stringify({ text: ESSAY })}\n`);
    expect(batch.code).toBe(1);
    expect(batch.err).toMatch(/no evidence to check against/);
  });
});

describe('small command-line answers', () => {
  it('image-metadata takes --compact and prints one line', async () => {
    const image = join('fixtures', 'demo', 'evening-harbour.jpg');
    const compact = await run(['image-metadata', image, '--compact']);
    expect(compact.code).toBe(0);
    expect(compact.out.trim().split('\n')).toHaveLength(1);
    const pretty = await run(['image-metadata', image]);
    expect(JSON.parse(compact.out)).toEqual(JSON.parse(pretty.out));
  });

  it('ai-text with literal text instead of a file points to --text', async () => {
    const { code, err } = await run(['ai-text', 'some literal text']);
    expect(code).toBe(1);
    expect(err).toBe('content-analysis: ENOENT: no such file "some literal text"; to give the text itself, use --text "some literal text"\n');
  });

  it('names an unknown option with matching quotes', async () => {
    const { code, err } = await run(['credits', 'show', '--bogus']);
    expect(code).toBe(2);
    const first = err.split('\n')[0]!;
    expect(first).toBe("content-analysis: Unknown option '--bogus' (a value starting with - goes after --, as in -- '--bogus')");
    expect(first.split("'").length % 2).toBe(1);
  });

  it('worker --help names every queued feature and the stall bound', async () => {
    const { code, out } = await run(['worker', '--help']);
    expect(code).toBe(0);
    expect(out).toMatch(/image detection, advanced image detection, AI text,\s+plagiarism v2 and v1, fact checking/);
    expect(out).toMatch(/lock-duration \+ 2 × stall-interval/);
  });
});
