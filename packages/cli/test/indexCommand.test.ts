import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SourceIndex } from '@content-analysis/plagiarism';
import { dropSchema, freshSchema, postgresSkipReason, postgresUrl } from '../../server/test/services.js';
import { main } from '../src/index.js';
import { captureIo } from './io.js';

const skip = await postgresSkipReason('index add on PostgreSQL');
const dir = mkdtempSync(join(tmpdir(), 'ca-index-'));
const TEXT = 'The lighthouse keeper climbed the spiral stairs every evening at dusk to light the great lamp for the ships.';

describe.skipIf(skip !== undefined)('index add <folder> --database', () => {
  const schema = freshSchema();
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropSchema(schema);
  });

  it('adds a folder whose files have fractional times, and the index returns whole milliseconds', async () => {
    const folder = join(dir, 'docs');
    mkdirSync(folder);
    writeFileSync(join(folder, 'lighthouse.txt'), TEXT);
    utimesSync(join(folder, 'lighthouse.txt'), 1795775943.2931575, 1795775943.2931575);
    const io = captureIo();
    expect(await main(['index', 'add', folder, '--database', postgresUrl, '--database-schema', schema], io)).toBe(0);
    expect(io.err()).toBe('');
    expect(JSON.parse(io.out())).toMatchObject({ added: 1, documents: 1 });
    const index = await SourceIndex.openPostgres({ connectionString: postgresUrl, schema });
    try {
      expect(index.get('lighthouse.txt')?.publishedDate).toBe(1795775943293);
    } finally {
      await index.closeAsync();
    }
  });
});
