import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteLedger } from '@content-analysis/credits';
import { BIN, buildWorkspace } from './build.js';

const dir = mkdtempSync(join(tmpdir(), 'ca-serve-'));
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(() => buildWorkspace(), 120_000);
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `content-analysis serve` and waits for its first token and its address. */
async function serve(db: string): Promise<{ child: ChildProcessWithoutNullStreams; url: string; token: string | undefined }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--no-warm', '--db', db], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let token: string | undefined;
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    if (/^ca_/.test(line)) token = line.trim();
    const match = /listening on (http:\/\/\S+)/.exec(line);
    if (match) return { child, url: match[1]!, token };
  }
  throw new Error('serve exited before listening');
}

function compare(url: string, token: string): Promise<Response> {
  return fetch(`${url}/v2/text-compare`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    // 4 + 4 words: 4 credits
    body: JSON.stringify({ first_text: 'one two three four', second_text: 'one two three five' }),
  });
}

describe('content-analysis serve', () => {
  it('prints a first token once, and serves with the embedded ledger', async () => {
    const db = join(dir, 'first.sqlite');
    const first = await serve(db);
    expect(first.token).toMatch(/^ca_/);
    const response = await compare(first.url, first.token!);
    expect(response.status).toBe(200);
    expect((((await response.json()) as any)).credits_remaining).toBe(1996);
    // The default fetch policy of a real server: a loopback image URL is refused before anything is fetched or charged.
    const advanced = await fetch(`${first.url}/v2/advanced-image-detection`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${first.token}` },
      body: JSON.stringify({ image_url: `${first.url}/openapi.json` }),
    });
    expect(advanced.status).toBe(400);
    expect(((await advanced.json()) as any).error).toBe('Invalid URL provided');
    first.child.kill('SIGTERM');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const again = await serve(db);
    expect(again.token).toBeUndefined();
    expect((((await (await compare(again.url, first.token!)).json()) as any)).credits_remaining).toBe(1992);
    again.child.kill('SIGTERM');
  });

  it('exits on a busy port without showing a token, so the next start shows the first token', async () => {
    const db = join(dir, 'busy.sqlite');
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--no-warm', '--db', db], { stdio: ['pipe', 'pipe', 'pipe'] });
      children.push(child);
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (err += chunk));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(out).toBe('');
      expect(err).toBe(`content-analysis: cannot listen on 127.0.0.1:${port}: the address is in use\n`);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
    const later = await serve(db);
    expect(later.token).toMatch(/^ca_/);
    later.child.kill('SIGTERM');
  });

  it('loses no committed charge when the process is killed', async () => {
    const db = join(dir, 'killed.sqlite');
    const { child, url, token } = await serve(db);
    let acknowledged = 0;
    let lowest = 2000;
    let stop = false;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // Four clients charge as fast as they can; the process is killed while requests are in flight.
    const clients = Array.from({ length: 4 }, async () => {
      while (!stop) {
        try {
          const response = await compare(url, token!);
          if (response.status !== 200) continue;
          const body = ((await response.json()) as any);
          acknowledged++;
          lowest = Math.min(lowest, body.credits_remaining);
        } catch {
          return; // the server is gone
        }
      }
    });
    while (acknowledged < 60) await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill('SIGKILL');
    await exited;
    stop = true;
    await Promise.all(clients);

    const ledger = new SqliteLedger({ path: db });
    try {
      const charges = (await ledger.history('default', 10_000)).filter((e) => e.kind === 'charge');
      const balance = await ledger.balance('default');
      // Every acknowledged charge is on disk; a request in flight at the kill may have committed too.
      expect(charges.length).toBeGreaterThanOrEqual(acknowledged);
      expect(charges.length).toBeLessThanOrEqual(acknowledged + 4);
      expect(balance).toBe(2000 - 4 * charges.length);
      expect(balance).toBeLessThanOrEqual(lowest);
    } finally {
      await ledger.close();
    }
  });
});
