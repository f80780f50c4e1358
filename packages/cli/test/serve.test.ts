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

  it('loses no committed charge when the process is killed, and keeps none whose answer did not leave', async () => {
    const db = join(dir, 'killed.sqlite');
    const { child, url, token } = await serve(db);
    let acknowledged = 0;
    const remainingSeen = new Set<number>();
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
          remainingSeen.add(body.credits_remaining);
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

    // Opening the file again refunds the charges the dead process held for answers it had not finished handing over
    // (the delivery rule, as PostgreSQL does in multiNode.test.ts: an answer may go uncharged, never a charge
    // unanswered). So: every charge kept is one whose answer a client read; every answer read was charged; at most
    // the four requests in flight at the kill were answered and then refunded.
    const ledger = new SqliteLedger({ path: db });
    try {
      const history = await ledger.history('default', 10_000);
      const refunded = new Set(history.filter((e) => e.kind === 'refund').map((e) => e.refundOf));
      const charges = history.filter((e) => e.kind === 'charge');
      const kept = charges.filter((e) => !refunded.has(e.id));
      const chargedBalances = new Set(charges.map((e) => e.balanceAfter));
      expect([...remainingSeen].filter((remaining) => !chargedBalances.has(remaining))).toEqual([]);
      expect(kept.filter((e) => !remainingSeen.has(e.balanceAfter))).toEqual([]);
      expect(kept.length).toBeLessThanOrEqual(acknowledged);
      expect(kept.length).toBeGreaterThanOrEqual(acknowledged - 4);
      expect(await ledger.pendingDeliveries()).toBe(0);
      expect(await ledger.balance('default')).toBe(2000 - 4 * kept.length);
    } finally {
      await ledger.close();
    }
  });
});
