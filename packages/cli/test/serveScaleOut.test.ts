import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteKeys, dropSchema, freshKeyPrefix, freshSchema, postgresSkipReason, postgresUrl, redisSkipReason, redisUrl,
} from '../../server/test/services.js';
import { buildWorkspace } from './build.js';
import { killAll, spawnCli, startServe, stop as stopChild, storeFreeEnvironment } from './processes.js';
import type { ServeNode as Node } from './processes.js';

/** `serve --database` and `--redis`: nodes as separate processes, sharing one PostgreSQL schema and one Redis prefix. */
const skip = (await postgresSkipReason('serve --database/--redis tests')) ?? (await redisSkipReason('serve --database/--redis tests'));

const schemas: string[] = [];
const prefixes: string[] = [];
beforeAll(() => buildWorkspace(), 120_000);
afterAll(async () => {
  await killAll();
  if (skip !== undefined) return;
  for (const schema of schemas) await dropSchema(schema);
  for (const prefix of prefixes) await deleteKeys(prefix);
});

function schema(): string {
  const name = freshSchema();
  schemas.push(name);
  return name;
}

function prefix(): string {
  const name = freshKeyPrefix();
  prefixes.push(name);
  return name;
}

/** Environment without the variables under test, plus `extra`; the analysis queue of `--redis` under a fresh prefix. */
function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return storeFreeEnvironment({ CONTENT_ANALYSIS_QUEUE_PREFIX: prefix(), ...extra });
}

/** Starts `content-analysis serve` and waits for its address (and its first token, if it prints one). */
function start(args: string[], env: NodeJS.ProcessEnv = environment()): Promise<Node> {
  return startServe(args, env);
}

async function exitOf(args: string[], env: NodeJS.ProcessEnv = environment()): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawnCli(['serve', '--port', '0', ...args], env);
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, out, err };
}

function compare(url: string, token: string): Promise<Response> {
  return fetch(`${url}/v2/text-compare`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ first_text: 'one two three four', second_text: 'one two three five' }), // 4 credits
  });
}

async function stop(node: Node): Promise<void> {
  await stopChild(node.child);
}

describe.skipIf(skip !== undefined)('content-analysis serve --database / --redis', () => {
  it('prints the first token once on a fresh schema; a second node on it prints none and shares the ledger', async () => {
    const args = ['--database', postgresUrl, '--database-schema', schema()];
    const a = await start(args);
    expect(a.token).toMatch(/^ca_/);
    expect(a.started).toContain('First access token (shown once, account "default", 2000 credits):');
    expect(a.started).toMatch(/\(ledger postgres:\/\/\S+ schema server_test_\w+; tool server at/);
    const b = await start(args);
    expect(b.token).toBeUndefined();
    expect(b.started).not.toContain('First access token');
    expect(((await (await compare(a.url, a.token!)).json()) as any).credits_remaining).toBe(1996);
    expect(((await (await compare(b.url, a.token!)).json()) as any).credits_remaining).toBe(1992);
    await Promise.all([stop(a), stop(b)]);
  });

  it('shows one first token when several nodes start together on a fresh schema', async () => {
    const args = ['--database', postgresUrl, '--database-schema', schema()];
    const nodes = await Promise.all([start(args), start(args), start(args)]);
    expect(nodes.filter((n) => n.token !== undefined)).toHaveLength(1);
    await Promise.all(nodes.map(stop));
  });

  it('reads the environment variables, and a flag wins over its variable', async () => {
    const fromEnv = await start([], environment({
      CONTENT_ANALYSIS_DATABASE_URL: postgresUrl,
      CONTENT_ANALYSIS_DATABASE_SCHEMA: schema(),
      CONTENT_ANALYSIS_REDIS_URL: redisUrl,
      CONTENT_ANALYSIS_REDIS_PREFIX: prefix(),
    }));
    expect(fromEnv.token).toMatch(/^ca_/);
    expect(fromEnv.started).toContain(`; rate limits and the analysis queue in ${redisUrl};`);
    const flagged = await start(['--database', postgresUrl, '--database-schema', schema(), '--redis', redisUrl, '--redis-prefix', prefix()],
      environment({ CONTENT_ANALYSIS_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', CONTENT_ANALYSIS_REDIS_URL: 'redis://127.0.0.1:1' }));
    expect(flagged.token).toMatch(/^ca_/);
    await Promise.all([stop(fromEnv), stop(flagged)]);
  });

  it('counts rate limits across nodes in Redis: 120 requests at once over two nodes pass the shared burst of 60', async () => {
    const args = ['--database', postgresUrl, '--database-schema', schema(), '--redis', redisUrl, '--redis-prefix', prefix()];
    const a = await start(args);
    const b = await start(args);
    // Each node alone would let its 60 through; one shared bucket lets 60 and what refills (10 a second) meanwhile.
    const answers = await Promise.all(Array.from({ length: 120 }, (_, i) => compare(i % 2 ? b.url : a.url, a.token!)));
    const allowed = answers.filter((r) => r.status === 200).length;
    const refused = answers.filter((r) => r.status === 429);
    expect(allowed).toBeGreaterThanOrEqual(60);
    expect(refused.length).toBe(120 - allowed);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.headers.get('retry-after')).toBe('1');
    expect(refused[0]!.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await Promise.all([stop(a), stop(b)]);
  }, 30_000);

  it('exits 1 naming the store when PostgreSQL or Redis does not answer, and 2 for a URL of another scheme', async () => {
    const noDatabase = await exitOf(['--database', 'postgres://postgres@127.0.0.1:1/none']);
    expect(noDatabase.code).toBe(1);
    expect(noDatabase.out).toBe('');
    expect(noDatabase.err).toMatch(/^content-analysis: cannot open the PostgreSQL ledger at postgres:\/\/postgres@127\.0\.0\.1:1\/none: .*ECONNREFUSED/);
    const noRedis = await exitOf(['--database', postgresUrl, '--database-schema', schema(), '--redis', 'redis://127.0.0.1:1']);
    expect(noRedis.code).toBe(1);
    expect(noRedis.out).toBe('');
    expect(noRedis.err).toBe('content-analysis: No Redis answered at redis://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1\n');
    const wrongScheme = await exitOf(['--database', 'mysql://localhost/db']);
    expect(wrongScheme.code).toBe(2);
    expect(wrongScheme.err).toContain('Expected postgres:// or postgresql:// URL for --database but received mysql://localhost/db');
  });

  it('keeps the plagiarism index in the --database schema when no --index is given: a running node finds what `index add --database` adds', async () => {
    const name = schema();
    const node = await start(['--database', postgresUrl, '--database-schema', name]);
    const dir = mkdtempSync(join(tmpdir(), 'cli-pg-index-'));
    try {
      const sourceText = 'The lighthouse keeper climbed the spiral stairs every evening at dusk to light the lamp. In winter storms the ' +
        'waves rose higher than the rocks, and salt spray coated the windows of the lantern room.';
      const essay = 'Coastal life has always depended on small acts of care. The lighthouse keeper climbed the spiral stairs every ' +
        'evening at dusk to light the lamp. Nobody in the village thought of this as heroic; it was simply the job.';
      writeFileSync(join(dir, 'sources.jsonl'), `${JSON.stringify({ url: 'https://history.example.org/keeper', text: sourceText })}\n`);
      const add = spawnCli(['index', 'add', join(dir, 'sources.jsonl'), '--database', postgresUrl, '--database-schema', name], environment());
      let out = '';
      add.stdout.on('data', (chunk) => (out += chunk));
      expect(await new Promise((resolve) => add.once('exit', resolve))).toBe(0);
      expect(JSON.parse(out)).toMatchObject({ added: 1, documents: 1, index: expect.stringContaining(`schema ${name}`) });
      const response = await fetch(`${node.url}/v2/plagiarism`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${node.token}` },
        body: JSON.stringify({ text: essay }),
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as any).sources.map((s: { url: string }) => s.url)).toEqual(['https://history.example.org/keeper']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await stop(node);
    }
  });
});
