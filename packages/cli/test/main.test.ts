import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countWords, SqliteLedger } from '@content-analysis/credits';
import { defaultImageClassifier } from '@content-analysis/engine';
import { main } from '../src/index.js';
import { captureIo } from './io.js';

const dir = mkdtempSync(join(tmpdir(), 'ca-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixtures = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'text-compare');

describe('text-compare', () => {
  it('compares two files and prints the result with what it would cost', async () => {
    const io = captureIo();
    const code = await main(['text-compare', join(fixtures, 'original.txt'), join(fixtures, 'revised.txt')], io);
    expect(code).toBe(0);
    const result = JSON.parse(io.out());
    expect(result.status).toBe(200);
    expect(result.first_text.total_word_count).toBe(193);
    expect(result.second_text.total_word_count).toBe(175);
    expect(result.credits_used).toBe(184); // (193 + 175) / 2
    expect(result.similarity_score).toBeGreaterThan(70);
    expect(result.similarity_score).toBeLessThan(100);
    expect('credits_remaining' in result).toBe(false);
  });

  it('reads standard input for -', async () => {
    const first = join(dir, 'first.txt');
    writeFileSync(first, 'one two three');
    const io = captureIo('one two four');
    expect(await main(['text-compare', first, '-', '--compact'], io)).toBe(0);
    const result = JSON.parse(io.out());
    expect(result.first_text.matching_word_count).toBe(2);
    expect(io.out().trim().split('\n')).toHaveLength(1);
  });

  it('takes a literal text with --<field>', async () => {
    const io = captureIo();
    expect(await main(['text-compare', '--first-text', 'a b', '--second-text', 'a b'], io)).toBe(0);
    expect(JSON.parse(io.out()).similarity_score).toBe(100);
  });

  it('prints the error body and exits 1 for invalid input', async () => {
    const io = captureIo();
    expect(await main(['text-compare', '--first-text', '', '--second-text', 'a'], io)).toBe(1);
    expect(JSON.parse(io.out())).toEqual({ status: 400, error: 'BAD_REQUEST', description: 'first_text must not be empty' });
  });

  it('says which file is missing', async () => {
    const io = captureIo();
    expect(await main(['text-compare', join(dir, 'nope.txt'), '-'], io)).toBe(1);
    expect(io.err()).toMatch(/ENOENT.*nope\.txt/);
  });

  it('refuses a private URL before fetching it', async () => {
    const io = captureIo();
    expect(await main(['text-compare', 'http://127.0.0.1:9/x.txt', '-'], io)).toBe(1);
    expect(JSON.parse(io.out()).error).toBe('BAD_REQUEST');
  });
});

describe('ai-text', () => {
  const documents = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'documents');

  it('reads a PDF document and charges one credit per word of its text', async () => {
    const io = captureIo();
    expect(await main(['ai-text', join(documents, 'two-column.pdf'), '--compact'], io)).toBe(0);
    const result = JSON.parse(io.out());
    const expected = readFileSync(join(documents, 'two-column.txt'), 'utf8');
    expect(result.credits_used).toBe(countWords(expected));
    expect(result.input).toBe('text');
    expect(result.score).toBeGreaterThanOrEqual(0);
    expect(result.score).toBeLessThanOrEqual(100);
  });

  it('reads a DOCX document', async () => {
    const io = captureIo();
    expect(await main(['ai-text', join(documents, 'tables-footnotes.docx'), '--compact'], io)).toBe(0);
    expect(JSON.parse(io.out()).credits_used).toBe(countWords(readFileSync(join(documents, 'tables-footnotes.txt'), 'utf8')));
  });
});

describe('--jsonl batch mode', () => {
  it('answers one line per request, in order, with an error line for a bad one', async () => {
    const input = [
      JSON.stringify({ first_text: 'a b c', second_text: 'a b c' }),
      '{"first_text": "broken',
      '',
      JSON.stringify({ first_text: 'x', second_text: 7 }),
      JSON.stringify({ first_text: 'a b', second_text: 'c d' }),
    ].join('\n');
    const io = captureIo(input);
    expect(await main(['text-compare', '--jsonl', '-'], io)).toBe(1);
    const lines = io.out().trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    expect(lines[0].similarity_score).toBe(100);
    expect(lines[1]).toMatchObject({ line: 2, status: 400, error: 'BAD_REQUEST' });
    expect(lines[1].description).toMatch(/^Malformed JSON/);
    expect(lines[2]).toEqual({ line: 4, status: 400, error: 'BAD_REQUEST', description: 'second_text must be of type string but received number' });
    expect(lines[3].similarity_score).toBe(0);
    expect(io.err()).toMatch(/4 requests: 2 ok, 2 failed/);
  });

  it('reads standard input when --jsonl has no value, as documented', async () => {
    for (const argv of [['text-compare', '--jsonl'], ['text-compare', '--jsonl', '--compact']]) {
      const io = captureIo(`${JSON.stringify({ first_text: 'a b', second_text: 'a b' })}\n`);
      expect(await main(argv, io)).toBe(0);
      expect(JSON.parse(io.out()).similarity_score).toBe(100);
    }
  });

  it('exits 0 when every line succeeds, reading a file', async () => {
    const file = join(dir, 'batch.jsonl');
    writeFileSync(file, `${JSON.stringify({ first_text: 'a', second_text: 'a' })}\n`);
    const io = captureIo();
    expect(await main(['text-compare', '--jsonl', file], io)).toBe(0);
    expect(JSON.parse(io.out()).credits_used).toBe(1);
  });
});

describe('accounts', () => {
  const db = join(dir, 'ledger.sqlite');

  it('creates a token shown once, stored as a hash, for a new account with 2000 credits', async () => {
    const io = captureIo();
    expect(await main(['tokens', 'create', '--db', db, '--label', 'ci'], io)).toBe(0);
    const { token, account } = JSON.parse(io.out());
    expect(token).toMatch(/^ca_[A-Za-z0-9_-]{43}$/);
    expect(account).toBe('default');
    const ledger = new SqliteLedger({ path: db });
    try {
      expect(await ledger.authenticate(token)).toMatchObject({ accountId: 'default' });
      expect(await ledger.balance('default')).toBe(2000);
    } finally {
      await ledger.close();
    }
  });

  it('adds and shows credits', async () => {
    const add = captureIo();
    expect(await main(['credits', 'add', '500', '--db', db], add)).toBe(0);
    expect(JSON.parse(add.out()).balance).toBe(2500);
    const show = captureIo();
    expect(await main(['credits', 'show', '--db', db], show)).toBe(0);
    const shown = JSON.parse(show.out());
    expect(shown.balance).toBe(2500);
    expect(shown.history[0]).toMatchObject({ kind: 'topup', amount: 500 });
  });

  it('refuses a top-up that is not a positive integer', async () => {
    const io = captureIo();
    expect(await main(['credits', 'add', '1.5', '--db', db], io)).toBe(2);
    expect(io.err()).toMatch(/Expected positive integer for amount/);
  });

  it('reads a negative amount as a value and refuses it with a clear message', async () => {
    const io = captureIo();
    expect(await main(['credits', 'add', '-1990', '--db', db], io)).toBe(2);
    expect(io.err()).not.toMatch(/Unknown option/);
    expect(io.err().split('\n')[0]).toBe('content-analysis: Expected positive integer for amount but received -1990');
    const show = captureIo();
    expect(await main(['credits', 'show', '--db', db], show)).toBe(0);
    expect(JSON.parse(show.out()).balance).toBe(2500);
  });

  it('reads the ledger path from CONTENT_ANALYSIS_DB', async () => {
    const io = captureIo('', { CONTENT_ANALYSIS_DB: db });
    expect(await main(['credits', 'show'], io)).toBe(0);
    expect(JSON.parse(io.out()).balance).toBe(2500);
  });
});

describe('usage', () => {
  it('exits 2 with the usage for an unknown command', async () => {
    const io = captureIo();
    expect(await main(['frobnicate'], io)).toBe(2);
    expect(io.err()).toMatch(/Unknown command: frobnicate/);
    expect(io.err()).toMatch(/text-compare <first-text> <second-text>/);
  });

  const COMMANDS = ['text-compare', 'ai-text', 'plagiarism', 'fact-check', 'image', 'image-metadata', 'forensics', 'serve', 'worker', 'accounts', 'tokens', 'credits', 'index', 'openapi'];

  it.each(COMMANDS)('%s --help and -h print that command\'s usage and exit 0', async (command) => {
    for (const flag of ['--help', '-h']) {
      const io = captureIo();
      expect(await main([command, flag], io)).toBe(0);
      expect(io.out()).toMatch(new RegExp(`^Usage: content-analysis ${command}( |\n)`));
      expect(io.out()).not.toMatch(/Feature commands/);
      expect(io.err()).toBe('');
    }
  });

  it.each([
    [[], 'worker: missing --redis <redis://…> (or CONTENT_ANALYSIS_REDIS_URL), the queue to take jobs from'],
    [['--redis', 'http://cache'], 'Expected redis:// or rediss:// URL for --redis but received http://cache'],
    [['--redis', 'redis://127.0.0.1:1', '--concurrency', '0'], 'Expected positive integer for --concurrency but received 0'],
    [['--redis', 'redis://127.0.0.1:1', '--lock-duration', 'soon'], 'Expected positive integer for --lock-duration but received soon'],
  ])('worker %j exits 2 with a usage error', async (argv, message) => {
    const io = captureIo();
    expect(await main(['worker', ...argv], io)).toBe(2);
    expect(io.err().split('\n')[0]).toBe(`content-analysis: ${message}`);
    expect(io.err()).toContain('Usage: content-analysis worker');
  });

  it('answers a usage error with a short message and the command\'s own usage', async () => {
    const missing = captureIo('');
    expect(await main(['text-compare', '-'], missing)).toBe(2);
    const lines = missing.err().trim().split('\n');
    expect(lines[0]).toBe('content-analysis: text-compare: missing <second-text> (the second text)');
    expect(missing.err()).toMatch(/Usage: content-analysis text-compare <first-text> <second-text>/);
    expect(missing.err()).not.toMatch(/Feature commands/);
    expect(lines.length).toBeLessThan(12);

    const unknownOption = captureIo();
    expect(await main(['credits', 'show', '--bogus'], unknownOption)).toBe(2);
    expect(unknownOption.err()).toMatch(/Unknown option '--bogus'/);
    expect(unknownOption.err()).toMatch(/Usage: content-analysis credits show/);
    expect(unknownOption.err()).not.toMatch(/Feature commands/);
  });

  it('prints the OpenAPI document', async () => {
    const io = captureIo();
    expect(await main(['openapi'], io)).toBe(0);
    expect(JSON.parse(io.out()).openapi).toBe('3.1.0');
  });
});

describe('inputs that are directories', () => {
  it.each([
    ['text-compare', ['text-compare', dir, '-']],
    ['ai-text', ['ai-text', dir]],
    ['a document path', ['ai-text', join(dir, 'folder.pdf')]],
    ['image', ['image', dir]],
    ['image-metadata', ['image-metadata', dir]],
    ['forensics', ['forensics', dir]],
    ['--jsonl', ['text-compare', '--jsonl', dir]],
  ])('%s says the input is a directory, exits 1, without a stack trace or an error body', async (_name, argv) => {
    mkdirSync(join(dir, 'folder.pdf'), { recursive: true });
    const io = captureIo();
    expect(await main(argv, io)).toBe(1);
    const path = argv.find((arg) => arg.startsWith(dir))!;
    expect(io.err()).toBe(`content-analysis: ${path} is a directory, not a file\n`);
    expect(io.out()).toBe('');
  });
});

describe('serve', () => {
  it('fails on a busy port before creating the account, so a later start still shows the first token', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    const db = join(dir, 'busy.sqlite');
    try {
      const io = captureIo();
      expect(await main(['serve', '--port', String(port), '--db', db], io)).toBe(1);
      expect(io.err()).toBe(`content-analysis: cannot listen on 127.0.0.1:${port}: the address is in use\n`);
      expect(io.out()).not.toMatch(/ca_/);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
    const ledger = new SqliteLedger({ path: db });
    try {
      expect(await ledger.getAccount('default')).toBeUndefined();
    } finally {
      await ledger.close();
    }
  });
});

describe('plagiarism and fact-check with their collections', () => {
  const sourceText =
    'The lighthouse keeper climbed the spiral stairs every evening at dusk to light the lamp. In winter storms the ' +
    'waves rose higher than the rocks, and salt spray coated the windows of the lantern room.';
  const essay =
    'Coastal life has always depended on small acts of care. The lighthouse keeper climbed the spiral stairs every ' +
    'evening at dusk to light the lamp. Nobody in the village thought of this as heroic; it was simply the job.';

  it('checks a file against --sources given as JSONL', async () => {
    const sources = join(dir, 'sources.jsonl');
    writeFileSync(sources, `${JSON.stringify({ url: 'https://history.example.org/keeper', title: 'The keeper', text: sourceText })}\n`);
    const input = join(dir, 'essay.txt');
    writeFileSync(input, essay);
    const io = captureIo();
    expect(await main(['plagiarism', input, '--sources', sources, '--compact'], io)).toBe(0);
    const result = JSON.parse(io.out());
    expect(result.sources.map((s: { url: string }) => s.url)).toEqual(['https://history.example.org/keeper']);
    expect(result.credits_used).toBe(2 * countWords(essay));
  });

  it('names a source of a --sources folder by its path inside the folder, not by where the folder lives', async () => {
    const folder = join(dir, 'sources-folder');
    mkdirSync(join(folder, 'history'), { recursive: true });
    writeFileSync(join(folder, 'history', 'keeper.txt'), sourceText);
    const io = captureIo(essay);
    expect(await main(['plagiarism', '-', '--sources', folder, '--compact'], io)).toBe(0);
    const result = JSON.parse(io.out());
    expect(result.sources.map((s: { url: string }) => s.url)).toEqual(['history/keeper.txt']);
    expect(io.out()).not.toContain(dir);
  });

  it('answers --sources on /dev/zero, a symbolic link loop and a missing path with one line, never a stack or a 500 body', async () => {
    const loop = join(dir, 'loop-link');
    symlinkSync(loop, loop);
    const cases: [string, string][] = [['/dev/zero', 'not a regular file or folder'], [loop, 'a loop of symbolic links'], [join(dir, 'nowhere'), 'not found']];
    for (const [path, why] of cases) {
      const io = captureIo(essay);
      const started = Date.now();
      expect(await main(['plagiarism', '-', '--sources', path, '--compact'], io), path).toBe(1);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(io.err()).toBe(`content-analysis: cannot read the documents: ${path}: ${why}\n`);
      expect(io.out()).toBe('');
    }
  });

  it('reads a --sources folder holding a link back to itself once', async () => {
    const folder = join(dir, 'sources-cycle');
    mkdirSync(join(folder, 'inner'), { recursive: true });
    writeFileSync(join(folder, 'inner', 'keeper.txt'), sourceText);
    symlinkSync(folder, join(folder, 'inner', 'up'));
    const io = captureIo(essay);
    expect(await main(['plagiarism', '-', '--sources', folder, '--compact'], io)).toBe(0);
    expect(JSON.parse(io.out()).sources.map((s: { url: string }) => s.url)).toEqual(['inner/keeper.txt']);
  });

  it('adds documents to a persisted index that a later check reads with --index', async () => {
    const folder = join(dir, 'source-folder');
    mkdirSync(folder);
    writeFileSync(join(folder, 'keeper.txt'), sourceText);
    const index = join(dir, 'sources.sqlite');
    const add = captureIo();
    expect(await main(['index', 'add', folder, '--index', index], add)).toBe(0);
    expect(JSON.parse(add.out())).toMatchObject({ added: 1, documents: 1 });
    const io = captureIo(essay);
    expect(await main(['plagiarism', '-', '--index', index, '--compact'], io)).toBe(0);
    expect(JSON.parse(io.out()).sources).toHaveLength(1);
  });

  it('fact-checks against --evidence', async () => {
    const evidence = join(dir, 'evidence.jsonl');
    writeFileSync(
      evidence,
      `${JSON.stringify({ url: 'https://encyclopedia.example.org/eiffel', title: 'Eiffel Tower', text: 'The Eiffel Tower in Paris was completed in 1889. The tower is 330 metres tall.' })}\n`,
    );
    const text =
      'The Eiffel Tower was completed in 1889 for the World Fair in Paris. It is about 330 metres tall. I think it ' +
      'is the most beautiful building in Europe, and millions of people visit it every year to see the city from above. ' +
      'Nobody I know has ever climbed all of its stairs, although the lifts are slow in summer.';
    const io = captureIo(text);
    expect(await main(['fact-check', '-', '--evidence', evidence, '--compact'], io)).toBe(0);
    const result = JSON.parse(io.out());
    expect(result.creditsUsed).toBe(2 * countWords(text));
    expect(result.claims.length).toBeGreaterThan(0);
    expect(result.claims.some((c: { links: Array<{ url: string }> }) => c.links.some((l) => l.url === 'https://encyclopedia.example.org/eiffel'))).toBe(true);
  });
});

describe('image commands', () => {
  async function photo(path: string): Promise<void> {
    const { default: sharp } = await import('sharp');
    const width = 320;
    const height = 256;
    const data = Buffer.alloc(width * height * 3);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7 + ((i / 3) | 0) % 251) & 255;
    writeFileSync(path, await sharp(data, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer());
  }

  it('image-metadata prints the documented metadata object', async () => {
    const file = join(dir, 'photo.jpg');
    await photo(file);
    const io = captureIo();
    expect(await main(['image-metadata', file], io)).toBe(0);
    const result = JSON.parse(io.out());
    expect(result.mime_type).toBe('image/jpeg');
    expect(result.metadata).toMatchObject({ format: 'jpeg', width: 320, height: 256, channels: 3 });
    expect(result.ai_watermark_detected).toBe(false);
  });

  it('image-metadata reads an image under 256x256 (the minimum is the detection endpoints\' only)', async () => {
    const { default: sharp } = await import('sharp');
    const file = join(dir, 'thumbnail.jpg');
    const thumbnail = sharp({ create: { width: 100, height: 75, channels: 3, background: { r: 90, g: 120, b: 30 } } });
    writeFileSync(file, await thumbnail.withExif({ IFD0: { Make: 'Canon' } }).jpeg().toBuffer());
    const io = captureIo();
    expect(await main(['image-metadata', file], io)).toBe(0);
    const result = JSON.parse(io.out());
    expect(result.metadata).toMatchObject({ format: 'jpeg', width: 100, height: 75 });
    expect(result.exif.Make).toBe('Canon');
  });

  it('image-metadata refuses a file that is not an image with BAD_REQUEST', async () => {
    const file = join(dir, 'not-an-image.jpg');
    writeFileSync(file, 'plain text');
    const io = captureIo();
    expect(await main(['image-metadata', file], io)).toBe(1);
    expect(JSON.parse(io.out()).error).toBe('BAD_REQUEST');
  });

  it('forensics prints the fields of the API\'s advanced result with its cost, 500, and no balance', async () => {
    const { advancedImageDetectionResult } = await import('@content-analysis/engine');
    const file = join(dir, 'photo-cost.jpg');
    await photo(file);
    const io = captureIo();
    expect(await main(['forensics', file], io)).toBe(0);
    const result = JSON.parse(io.out());
    expect(result.cost).toBe(500);
    expect('balance' in result).toBe(false);
    const apiFields = Object.keys(advancedImageDetectionResult.shape).filter((field) => field !== 'balance');
    expect(Object.keys(result).sort()).toEqual(apiFields.sort());
  });

  it('forensics writes, per map, a heatmap, a 16-bit raw map named with the tool id and raw, and its scale', async () => {
    const file = join(dir, 'photo2.jpg');
    await photo(file);
    const outDir = join(dir, 'maps');
    const io = captureIo();
    expect(await main(['forensics', file, '--out', outDir], io)).toBe(0);
    const result = JSON.parse(io.out());
    expect(result.tool_used).toContain('ela_image');
    const files = result.files as string[];
    const raw = files.find((f) => f.includes('ela_image') && f.endsWith('.raw.png'))!;
    expect(raw).toBeDefined();
    const { default: sharp } = await import('sharp');
    const meta = await sharp(readFileSync(raw)).metadata();
    expect(meta.depth).toBe('ushort');
    expect(meta.width).toBe(320);
    const sidecar = JSON.parse(readFileSync(raw.replace(/\.png$/, '.json'), 'utf8'));
    expect(typeof sidecar.scale).toBe('number');
    expect(files.some((f) => f.includes('ela_image') && f.endsWith('.heatmap.png'))).toBe(true);
  });
});

/**
 * Whether the real AI-image model is there: the `image` command's success path runs it (the CLI has no classifier
 * to inject). A model that is missing fails with MODEL_LOAD_FAILED; anything else (here: bytes that are no image)
 * means it loaded.
 */
const REAL_CLASSIFIER = await defaultImageClassifier()
  .classify(new Uint8Array([0xff, 0xd8, 0xff]))
  .then(
    () => true,
    (error: { code?: unknown; message?: string }) => {
      if (error.code !== 'MODEL_LOAD_FAILED') return true;
      console.warn(`[cli] the AI-image model is not there (${error.message}): the image command's success test is skipped`);
      return false;
    },
  );

describe('image', () => {
  async function encode(width: number, height: number, format: 'jpeg' | 'png'): Promise<Buffer> {
    const { default: sharp } = await import('sharp');
    const data = Buffer.alloc(width * height * 3);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7 + ((i / 3) | 0) % 251) & 255;
    const image = sharp(data, { raw: { width, height, channels: 3 } });
    return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 90 }).toBuffer();
  }

  it('lists the command with its --version option', async () => {
    const io = captureIo();
    expect(await main(['--help'], io)).toBe(0);
    expect(io.out()).toMatch(/ image <image> \[--version <version>\] +Estimate whether an image/);
  });

  it('refuses an image under 256x256 with BAD_REQUEST naming the field, before any classification', async () => {
    const file = join(dir, 'small.png');
    writeFileSync(file, await encode(300, 200, 'png'));
    const io = captureIo();
    expect(await main(['image', file], io)).toBe(1);
    expect(JSON.parse(io.out())).toEqual({ status: 400, error: 'BAD_REQUEST', description: 'image: The image is 300x200 pixels; the minimum is 256x256.' });
  });

  it('refuses an unknown --version with BAD_REQUEST', async () => {
    const file = join(dir, 'version.jpg');
    writeFileSync(file, await encode(320, 256, 'jpeg'));
    const io = captureIo();
    expect(await main(['image', file, '--version', '10'], io)).toBe(1);
    expect(JSON.parse(io.out())).toEqual({ status: 400, error: 'BAD_REQUEST', description: 'version must be one of "9", "8", "7", "6", "5", "legacy-5", "4", "3", "2", "1", "latest"' });
  });

  it('sends an http(s) argument as url, through the guarded fetcher', async () => {
    const io = captureIo();
    expect(await main(['image', 'http://127.0.0.1:9/photo.png'], io)).toBe(1);
    expect(JSON.parse(io.out())).toMatchObject({ status: 400, error: 'BAD_REQUEST' });
    expect(JSON.parse(io.out()).description).toMatch(/127\.0\.0\.1/);
  });

  it('reads requests line by line with --jsonl', async () => {
    const small = (await encode(256, 255, 'png')).toString('base64');
    const input = [JSON.stringify({ image: small }), JSON.stringify({ url: 'http://localhost/a.png' }), JSON.stringify({})].join('\n');
    const io = captureIo(input);
    expect(await main(['image', '--jsonl', '-'], io)).toBe(1);
    expect(io.out().trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { line: 1, status: 400, error: 'BAD_REQUEST', description: 'image: The image is 256x255 pixels; the minimum is 256x256.' },
      expect.objectContaining({ line: 2, status: 400, error: 'BAD_REQUEST' }),
      { line: 3, status: 400, error: 'BAD_REQUEST', description: 'url or image is required' },
    ]);
  });

  it.skipIf(!REAL_CLASSIFIER)('classifies a file with the real default classifier, printing what it would cost', async () => {
    const file = join(dir, 'photo.png');
    writeFileSync(file, await encode(320, 256, 'png'));
    const io = captureIo();
    expect(await main(['image', file], io)).toBe(0);
    const result = JSON.parse(io.out());
    expect(result).toMatchObject({ version: '5', mime_type: 'image/png', metadata: { format: 'png', width: 320, height: 256 }, credits_used: 300 });
    expect('credits_remaining' in result).toBe(false);
    expect(Number.isInteger(result.score)).toBe(true);
    expect(result.score).toBe(Math.round(100 * result.human_probability));
    expect(result.ai_probability + result.human_probability).toBeCloseTo(1, 6);

    const standardInput = captureIo();
    standardInput.stdin = (await import('node:stream')).Readable.from([readFileSync(file)]);
    expect(await main(['image', '-', '--version', '2', '--compact'], standardInput)).toBe(0);
    expect(JSON.parse(standardInput.out())).toMatchObject({ version: '2', metadata: { width: 320, height: 256 } });
  });
});
