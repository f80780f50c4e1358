import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs module shared with the evaluation script
import { compareWithExiftool, isCameraJpeg } from '../../../scripts/image-metadata/compareWithExiftool.mjs';
import { extractImageMetadata } from '../src/index.js';
import { imageDataset } from './datasets.js';

interface Disagreement { field: string; exiftoolKey: string; ours: unknown; exiftool: unknown }

const dir = imageDataset('exif-samples');

describe.skipIf(!dir)('field-level agreement with exiftool 12.57 on exif-samples camera JPEGs', () => {
  it('reports every disagreement and agrees on at least 98% of compared fields', async () => {
    const reference = JSON.parse(readFileSync(join(dir!, 'exiftool-12.57.json'), 'utf8')) as Record<string, unknown>[];
    const files = reference.filter((r) => isCameraJpeg(String(r['SourceFile'])) && existsSync(join(dir!, String(r['SourceFile']))));
    expect(files.length).toBeGreaterThan(60);
    let compared = 0;
    const disagreements: string[] = [];
    for (const entry of files) {
      const file = join(dir!, String(entry['SourceFile']));
      let result;
      try {
        result = await extractImageMetadata(readFileSync(file), { minDimension: 0, decodeWatermark: false });
      } catch (error) {
        compared += 1;
        disagreements.push(`${String(entry['SourceFile'])} unreadable: ${(error as Error).message}`);
        continue;
      }
      const outcome = compareWithExiftool(result, entry) as { compared: number; disagreements: Disagreement[] };
      compared += outcome.compared;
      for (const d of outcome.disagreements) {
        disagreements.push(`${String(entry['SourceFile'])} ${d.field} (${d.exiftoolKey}): ours ${JSON.stringify(d.ours)} exiftool ${JSON.stringify(d.exiftool)}`);
      }
    }
    const rate = 1 - disagreements.length / compared;
    console.log(`exiftool agreement: ${compared - disagreements.length}/${compared} fields (${(rate * 100).toFixed(2)}%) over ${files.length} files`);
    for (const line of disagreements) console.log(`  disagreement: ${line}`);
    expect(compared).toBeGreaterThan(500);
    expect(rate).toBeGreaterThanOrEqual(0.98);
  });
});
