import { crc32, deflateSync } from 'node:zlib';
import { warmUpHtmlParsers } from '@content-analysis/documents';
import { defaultAnalysisThreads } from '@content-analysis/engine';
import type { Engine } from '@content-analysis/engine';

const PROSE = 'The harbour town woke slowly on winter mornings. Fishing boats left before dawn, and the bakery on the ' +
  'corner opened its shutters while the streets were still dark. By nine the market square filled with stalls of ' +
  'bread, cheese and smoked fish, and the ferry from the island brought schoolchildren and a few tired tourists. ' +
  'In the afternoon the wind turned, and the fishermen came back with their nets.';

/** A 320×288 gradient PNG: large enough for the image detector (256×256 at least), made here without a codec. */
function samplePng(width = 320, height = 288): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      raw[row + 1 + x * 3] = (x * 255) / width;
      raw[row + 2 + x * 3] = (y * 255) / height;
      raw[row + 3 + x * 3] = ((x + y) * 97) % 256;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** One request per feature that loads a model or a large table on first use. */
function samples(): Record<string, unknown> {
  return {
    'ai-content-detection': { text: PROSE },
    'image-detection': { image: samplePng().toString('base64') },
    plagiarism: { text: PROSE },
    'fact-checker': { text: PROSE },
  };
}

/** What a warm-up did: per feature, the milliseconds it took, or why it failed. */
export type WarmUpReport = Record<string, { ms: number } | { error: string }>;

/**
 * Loads the models of `featureIds` (those this process runs itself) before it reports ready, so that the first
 * request is as fast as the hundredth: one analysis of a sample per feature and per analysis thread, since every
 * thread loads its own models. A failure is reported, not thrown: the feature then loads on first use as before.
 */
export async function warmUp(engine: Engine, featureIds: readonly string[]): Promise<WarmUpReport> {
  const report: WarmUpReport = {};
  // A `website` is read on this process's event loop, on an API node also when its analysis is queued: the HTML
  // parsers load now, not during the first page (it held /health 0.7-0.9 s in the attack replay of issue 26).
  if (engine.features.list().some((f) => WEBSITE_FEATURES.includes(f.id))) warmUpHtmlParsers();
  const requests = samples();
  const threads = defaultAnalysisThreads();
  for (const featureId of featureIds) {
    const request = requests[featureId];
    if (request === undefined) continue;
    const started = performance.now();
    try {
      await Promise.all(Array.from({ length: threads }, () => engine.analyse(featureId, request)));
      report[featureId] = { ms: Math.round(performance.now() - started) };
    } catch (error) {
      report[featureId] = { error: (error as Error).message };
    }
  }
  return report;
}

/** The features that take a `website` input. */
const WEBSITE_FEATURES = ['ai-content-detection', 'plagiarism', 'plagiarism-v1', 'fact-checker'];

/** The features of `samples` that an engine serves, less those it hands to a queue. */
export function warmFeatures(engine: Engine, offloaded: (featureId: string) => boolean): string[] {
  const served = new Set(engine.features.list().map((f) => f.id));
  return Object.keys(samples()).filter((id) => served.has(id) && !offloaded(id));
}
