import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectAiText } from '../../classifiers/src/index.js';
import { main } from '../src/index.js';
import { buildWorkspace } from './build.js';
import { captureIo } from './io.js';
import { killAll, startServe, stop, storeFreeEnvironment } from './processes.js';

const dir = mkdtempSync(join(tmpdir(), 'ca-calibrate-'));
afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

// Sentences written for this test; texts are drawn from them in a fixed pseudo-random order.
const SENTENCES = [
  'The committee met on Thursday to discuss the budget for the coming year.',
  'Several members asked why the library hours had been cut again.',
  'A local baker has started delivering bread by bicycle to the villages nearby.',
  'The river rose by nearly a metre after three days of steady rain.',
  'Parents gathered outside the school gates long before the doors opened.',
  'Her grandfather kept every letter he ever received in a tin box under the stairs.',
  'The bus to the coast leaves at seven, but it is usually a few minutes late.',
  'Nobody expected the old cinema to sell out on a wet Tuesday evening.',
  'The garden was overgrown, yet the apple tree still gave more fruit than they could eat.',
  'He fixed the fence himself, with borrowed tools and a great deal of swearing.',
  'Tickets for the concert went on sale at noon and were gone within the hour.',
  'The new footbridge has made the walk to the station ten minutes shorter.',
  'Most of the volunteers had never planted a hedge before that weekend.',
  'A stray dog followed the postman on his round for the whole of last week.',
  'The museum will close for repairs to its roof from the end of the month.',
  'She learned to sail on the lake where her mother had learned forty years earlier.',
];

function humanTexts(n: number, seed: number): string[] {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return Array.from({ length: n }, (_, i) => {
    const picked = Array.from({ length: 5 + (i % 4) }, () => SENTENCES[Math.floor(next() * SENTENCES.length)]!);
    return `Note ${i}. ${picked.join(' ')}`;
  });
}

const humanFile = join(dir, 'human.jsonl');
const profileFile = join(dir, 'profile.json');
const text = humanTexts(1, 99)[0]!.repeat(2);

beforeAll(() => {
  const lines = humanTexts(330, 1).map((t, i) => JSON.stringify(i % 3 === 0 ? t : { text: t, label: 'human' }));
  lines.push(JSON.stringify({ text: 'An AI answer that must be left out. '.repeat(20), label: 'ai' }));
  writeFileSync(humanFile, `${lines.join('\n')}\n`);
}, 60_000);

describe('content-analysis calibrate ai-text', () => {
  it('writes a valid profile from a JSONL file and prints what it promises per length', async () => {
    const io = captureIo();
    expect(await main(['calibrate', 'ai-text', '--human', humanFile, '--target-fpr', '0.01', '--out', profileFile], io)).toBe(0);
    const profile = JSON.parse(readFileSync(profileFile, 'utf8'));
    expect(profile).toMatchObject({
      kind: 'content-analysis/calibration-profile', detector: { model: 'ai-text', version: '2.0.0' },
      target_fpr: 0.01, confidence: 0.95, human_texts: 330, source: 'human.jsonl',
    });
    expect(profile.method).toMatch(/Clopper-Pearson/);
    const met = profile.buckets.filter((b: { meets_target: boolean }) => b.meets_target);
    expect(met.length).toBeGreaterThan(0);
    for (const b of met) expect(b.fpr_bound).toBeLessThanOrEqual(0.01);
    expect(io.err()).toContain('Calibrated ai-text 2.0.0 on 330 of 331 texts (left out: 1 not labelled human)');
    expect(io.err()).toMatch(/300-599\s+330\s+0\s+0\.90%/);
  });

  it('reads a folder of text files', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    humanTexts(310, 2).forEach((t, i) => writeFileSync(join(folder, i % 2 ? 'sub' : '', `${i}.txt`), t));
    writeFileSync(join(folder, 'ignored.csv'), 'a,b');
    const io = captureIo();
    expect(await main(['calibrate', 'ai-text', '--human', folder, '--target-fpr', '0.01'], io)).toBe(0);
    expect(JSON.parse(io.out()).human_texts).toBe(310);
  });

  it('refuses too few texts, a bad rate and a missing detector with clear messages', async () => {
    const few = join(dir, 'few.jsonl');
    writeFileSync(few, humanTexts(50, 3).map((t) => JSON.stringify(t)).join('\n'));
    let io = captureIo();
    expect(await main(['calibrate', 'ai-text', '--human', few, '--target-fpr', '0.01'], io)).toBe(1);
    expect(io.err()).toContain('50 usable human texts cannot promise a false-positive rate of 0.01 at 0.95 confidence: a length bucket needs at least 299');
    io = captureIo();
    expect(await main(['calibrate', 'ai-text', '--human', few, '--target-fpr', '2'], io)).toBe(2);
    expect(io.err()).toContain('Expected number in (0, 1) for --target-fpr but received 2');
    io = captureIo();
    expect(await main(['calibrate', '--human', few, '--target-fpr', '0.1'], io)).toBe(2);
    expect(io.err()).toContain('calibrate: missing the detector (ai-text)');
  });
});

describe('--calibration', () => {
  it('applies the profile to ai-text: the score is the library\'s with the same profile', async () => {
    const file = join(dir, 'text.txt');
    writeFileSync(file, text);
    const io = captureIo();
    expect(await main(['ai-text', file, '--calibration', profileFile, '--compact'], io)).toBe(0);
    const result = JSON.parse(io.out());
    const profile = JSON.parse(readFileSync(profileFile, 'utf8'));
    const expected = await detectAiText(text, { calibration: profile });
    // Results carry two decimals: the profile's score, not the shipped calibration's.
    expect(result.score).toBe(Math.round(expected.score * 100) / 100);
    const shipped = await detectAiText(text);
    expect(result.score).not.toBe(Math.round(shipped.score * 100) / 100);
  });

  it('refuses a file that is not a valid profile, naming it and the problem', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ kind: 'content-analysis/calibration-profile', format: 1 }));
    let io = captureIo();
    expect(await main(['ai-text', '--text', text, '--calibration', bad], io)).toBe(1);
    expect(io.err()).toBe(`content-analysis: Invalid calibration profile ${bad}: detector must be an object with a model id and a version\n`);
    writeFileSync(bad, '{');
    io = captureIo();
    expect(await main(['serve', '--port', '0', '--calibration', bad], io)).toBe(1);
    expect(io.err()).toMatch(/^content-analysis: the calibration profile .*bad\.json is not JSON/);
    io = captureIo();
    expect(await main(['worker', '--redis', 'redis://127.0.0.1:1', '--calibration', join(dir, 'missing.json')], io)).toBe(1);
    expect(io.err()).toMatch(/^content-analysis: cannot read the calibration profile .*missing\.json: ENOENT/);
    io = captureIo();
    expect(await main(['text-compare', '--first-text', 'a', '--second-text', 'b', '--calibration', profileFile], io)).toBe(2);
    expect(io.err()).toContain('text-compare: --calibration applies to ai-text only');
  });

  it('serve --calibration scores with the profile and refuses another detector version (400, uncharged)', async () => {
    buildWorkspace();
    const node = await startServe(['--db', join(dir, 'serve.sqlite'), '--calibration', profileFile], storeFreeEnvironment({ CONTENT_ANALYSIS_POOL: '0' }));
    expect(node.started).toMatch(
      /AI-text scores calibrated by .*profile\.json \(ai-text 2\.0\.0, at most 1% false positives at 95% confidence in \d of 5 length buckets \(bound 0\.\d+%\); too few texts to promise it at [\d+, ]+ characters\)/,
    );
    const post = (body: object) => fetch(`${node.url}/v2/ai-content-detection`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${node.token}` }, body: JSON.stringify(body),
    });
    const ok = await post({ text, sentences: false });
    expect(ok.status).toBe(200);
    const okBody = (await ok.json()) as { score: number; credits_remaining: number };
    const expected = await detectAiText(text, { calibration: JSON.parse(readFileSync(profileFile, 'utf8')) });
    expect(okBody.score).toBeCloseTo(expected.score, 1);
    const refused = await post({ text, version: '1.0.0' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      status: 400, error: 'BAD_REQUEST',
      description: 'The calibration profile in use was made for ai-text 2.0.0; it cannot calibrate ai-text 1.0.0 (omit version, or ask for 2.0.0)',
    });
    const after = (await (await post({ text, sentences: false })).json()) as { credits_remaining: number; credits_used: number };
    expect(after.credits_remaining).toBe(okBody.credits_remaining - after.credits_used);
    await stop(node.child);
  }, 120_000);
});
