import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/index.js';
import { captureIo } from './io.js';

const W = 256, H = 256; // the advanced analysis (forensics) takes at least 256x256
const RECT = [96, 64, 160, 128] as const;

function textured(seed: number): Buffer {
  let s = seed >>> 0;
  const random = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296;
  const out = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) for (let c = 0; c < 3; c++) {
    const v = 128 + 40 * Math.sin(x * 0.05 + c + seed) * Math.cos(y * 0.03) + 25 * Math.sin((x + y) * 0.13 + c * 2) + (random() - 0.5) * 30;
    out[(y * W + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(v)));
  }
  return out;
}

const jpeg = (pixels: Buffer, quality: number) => sharp(pixels, { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality }).toBuffer();

/** An aligned double-compression forgery: background saved at 60 then 90, the rectangle saved only at 90. */
async function forgery(seed: number): Promise<{ tampered: Buffer; original: Buffer }> {
  const base = textured(seed);
  const background = await sharp(await jpeg(base, 60)).raw().toBuffer();
  const composite = Buffer.from(background);
  for (let y = RECT[1]; y < RECT[3]; y++) base.copy(composite, (y * W + RECT[0]) * 3, (y * W + RECT[0]) * 3, (y * W + RECT[2]) * 3);
  return { tampered: await jpeg(composite, 90), original: await jpeg(background, 90) };
}

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'forensics-bench-'));
  for (const sub of ['tampered', 'mask', 'original']) mkdirSync(join(dir, sub));
  const mask = Buffer.alloc(W * H);
  for (let y = RECT[1]; y < RECT[3]; y++) mask.fill(255, y * W + RECT[0], y * W + RECT[2]);
  for (const seed of [1, 2]) {
    const { tampered, original } = await forgery(seed);
    writeFileSync(join(dir, 'tampered', `f${seed}.jpg`), tampered);
    writeFileSync(join(dir, 'original', `f${seed}.jpg`), original);
    writeFileSync(join(dir, 'mask', `f${seed}.png`), await sharp(mask, { raw: { width: W, height: H, channels: 1 } }).png().toBuffer());
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('forensics-bench', () => {
  it('prints per method the pixel AUC, best F1, MCC and image AUC, and writes them as JSON', async () => {
    const io = captureIo();
    const json = join(dir, 'out.json');
    expect(await main(['forensics-bench', '--dataset', dir, '--methods', 'dq-aligned,ela,fused', '--json', json], io)).toBe(0);
    expect(io.out()).toContain('2 tampered images, 2 originals');
    expect(io.out()).toContain('| method | tool | pixel AUC | best F1 | MCC | image AUC | failed |');
    expect(io.out()).toMatch(/\| dq-aligned \| jpeg_analysis \| 0\.9\d\d \|/);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    const dq = report.methods.find((m: { method: string }) => m.method === 'dq-aligned');
    expect(dq.images).toBe(2);
    expect(dq.pixelAuc).toBeGreaterThan(0.95);
    expect(dq.bestF1).toBeGreaterThan(0.8);
    expect(report.perImage.map((r: { image: string }) => r.image)).toEqual(['f1.jpg', 'f2.jpg']);
    expect(report.imageScores.fused.original).toHaveLength(2);
  }, 60_000);

  it('refuses a missing dataset, an unknown method and a folder without masks', async () => {
    let io = captureIo();
    expect(await main(['forensics-bench'], io)).toBe(2);
    expect(io.err()).toContain('forensics-bench: expected --dataset');
    io = captureIo();
    expect(await main(['forensics-bench', '--dataset', dir, '--methods', 'nope'], io)).toBe(2);
    expect(io.err()).toContain('unknown method nope');
    io = captureIo();
    expect(await main(['forensics-bench', '--dataset', join(dir, 'mask')], io)).toBe(1);
    expect(io.err()).toContain('expected');
  });

  it('has its own usage', async () => {
    const io = captureIo();
    expect(await main(['forensics-bench', '--help'], io)).toBe(0);
    expect(io.out()).toMatch(/^Usage: content-analysis forensics-bench --dataset <dir>/);
  });
});

describe('forensics --out with the JPEG-domain and fused maps', () => {
  it('writes each new method\'s raw map and the fused map as 16-bit grey PNGs named with raw', async () => {
    const io = captureIo();
    const out = join(dir, 'maps');
    expect(await main(['forensics', join(dir, 'tampered', 'f1.jpg'), '--out', out], io)).toBe(0);
    const files = JSON.parse(io.out()).files as string[];
    for (const stem of ['jpeg_analysis.dq-aligned.adq-single-probability', 'jpeg_analysis.dq-nonaligned.nadq-absent-probability', 'jpeg_analysis.jpeg-grid.grid-misalignment', 'jpeg_analysis.jpeg-ghost.ghost-dip', 'fused.fused-tamper-probability']) {
      const raw = files.find((f) => f.endsWith(`${stem}.raw.png`));
      expect(raw, stem).toBeDefined();
      const meta = await sharp(readFileSync(raw!)).metadata();
      expect(meta).toMatchObject({ depth: 'ushort', channels: 1, width: W / 8, height: H / 8 });
    }
  }, 60_000);
});
