import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, LedgerBusyError, SCHEMA_VERSION, SchemaVersionError, SqliteLedger } from '../src/index.js';
import { balanceFromEntries, describeLedgerContract } from './ledgerContract.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const fixtures = fileURLToPath(new URL('fixtures/', import.meta.url));
const tempDir = mkdtempSync(join(tmpdir(), 'credits-sqlite-'));
let files = 0;
const tempFile = (): string => join(tempDir, `ledger-${files++}.db`);

afterAll(() => {
  rmSync(tempDir, { recursive: true, force: true });
});

describeLedgerContract('SqliteLedger (:memory:)', () => new SqliteLedger({ path: ':memory:' }));
describeLedgerContract('SqliteLedger (file)', () => new SqliteLedger({ path: tempFile() }));

describe('SqliteLedger options', () => {
  it('rejects an empty path', () => {
    expect(() => new SqliteLedger({ path: '' })).toThrow(TypeError);
  });

  it('rejects a negative busy timeout', () => {
    expect(() => new SqliteLedger({ path: ':memory:', busyTimeout: -1 })).toThrow(
      'Expected non-negative integer for busyTimeout but received -1 of type number');
  });

  it('fails with LedgerBusyError once another connection holds the write lock past the busy timeout', async () => {
    const file = tempFile();
    const ledger = new SqliteLedger({ path: file, busyTimeout: 50 });
    const { id } = await ledger.createAccount();
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    try {
      const started = Date.now();
      await expect(ledger.charge(id, 1)).rejects.toBeInstanceOf(LedgerBusyError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(await ledger.charge(id, 1)).toMatchObject({ ok: true, balance: 1999 });
    await ledger.close();
  });
});

describe('SqliteLedger file', () => {
  it('uses a write-ahead log and records the schema version', async () => {
    const file = tempFile();
    await new SqliteLedger({ path: file }).close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all())
      .toEqual(['accounts', 'entries', 'pending_deliveries', 'tokens']);
    db.close();
  });

  it('keeps accounts, entries and tokens across reopening', async () => {
    const file = tempFile();
    const first = new SqliteLedger({ path: file });
    const { id } = await first.createAccount();
    await first.charge(id, 120);
    const { token } = await first.createToken(id);
    await first.close();
    const second = new SqliteLedger({ path: file });
    expect(await second.balance(id)).toBe(1880);
    expect(await second.history(id)).toHaveLength(2);
    expect(await second.authenticate(token)).toMatchObject({ accountId: id });
    await second.close();
  });

  it('refuses a file written by a newer schema version', () => {
    const file = tempFile();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => new SqliteLedger({ path: file })).toThrow(SchemaVersionError);
  });

  it('stores only the SHA-256 of a token, never the token', async () => {
    const file = tempFile();
    const ledger = new SqliteLedger({ path: file });
    const { id } = await ledger.createAccount();
    const { token, tokenId } = await ledger.createToken(id, 'deploy');
    const db = new Database(file, { readonly: true });
    const rows = db.prepare('SELECT * FROM tokens').all();
    db.close();
    expect(rows).toEqual([expect.objectContaining({ id: tokenId, hash: hashToken(token), label: 'deploy' })]);
    expect(JSON.stringify(rows)).not.toContain(token.slice(3));
    await ledger.close();
    const bytes = Buffer.concat(readdirSync(tempDir).filter((name) => name.startsWith(file.slice(tempDir.length + 1)))
      .map((name) => readFileSync(join(tempDir, name))));
    expect(bytes.includes(hashToken(token))).toBe(true);
    expect(bytes.includes(token.slice(3))).toBe(false);
    expect(bytes.includes(Buffer.from(token.slice(3), 'base64url'))).toBe(false);
  });

  it('refuses a second refund of one charge in the schema itself', async () => {
    const file = tempFile();
    const ledger = new SqliteLedger({ path: file });
    const { id } = await ledger.createAccount();
    const charge = await ledger.charge(id, 5);
    if (!charge.ok) throw new Error('charge refused');
    await ledger.refund(charge.chargeId);
    const db = new Database(file);
    expect(() => db.prepare(`INSERT INTO entries (id, account_id, kind, amount, balance_after, created_at, refund_of)
      VALUES ('rf_forged', ?, 'refund', 5, 2005, '', ?)`).run(id, charge.chargeId)).toThrow(/UNIQUE/);
    expect(() => db.prepare('UPDATE accounts SET balance = -1 WHERE id = ?').run(id)).toThrow(/CHECK/);
    db.close();
    await ledger.close();
  });
});

/**
 * Builds dist/ (what the child scripts import) if it is missing or older than src/. `tsc -b` rewrites only the
 * outputs whose content changed but always touches its build info, so that file's time says when dist was built.
 */
function ensureBuilt(): void {
  const buildInfo = join(packageDir, 'dist', '.tsbuildinfo');
  const src = join(packageDir, 'src');
  const newestSource = Math.max(...readdirSync(src).map((name) => statSync(join(src, name)).mtimeMs));
  if (existsSync(join(packageDir, 'dist', 'index.js')) && existsSync(buildInfo) &&
    statSync(buildInfo).mtimeMs >= newestSource) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-b', packageDir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`tsc -b failed:\n${result.stdout}${result.stderr}`);
}

function runNode(script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(fixtures, script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${script} exited ${code}: ${stderr}`))));
  });
}

describe('SqliteLedger group commit', () => {
  /** Frames in the write-ahead log of `file` (each commit appends the pages it changed). */
  function walFrames(file: string): number {
    const size = existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0;
    return size <= 32 ? 0 : (size - 32) / (4096 + 24);
  }

  function emptyWal(file: string): void {
    const other = new Database(file);
    other.pragma('wal_checkpoint(TRUNCATE)');
    other.close();
  }

  it('commits the charges asked for in one turn together: 50 at once write a few frames, 50 one after another write each', async () => {
    const file = tempFile();
    const ledger = new SqliteLedger({ path: file });
    const { id } = await ledger.createAccount({ credits: 1000 });
    emptyWal(file);
    const together = await Promise.all(Array.from({ length: 50 }, () => ledger.charge(id, 1)));
    expect(together.every((c) => c.ok)).toBe(true);
    // Each charge saw the balance the previous one left, in the order they were asked for.
    expect(together.map((c) => c.balance)).toEqual(Array.from({ length: 50 }, (_, i) => 999 - i));
    const framesTogether = walFrames(file);
    emptyWal(file);
    for (let i = 0; i < 50; i++) await ledger.charge(id, 1);
    const framesApart = walFrames(file);
    expect(framesTogether).toBeGreaterThan(0);
    expect(framesTogether).toBeLessThan(20);
    expect(framesApart).toBeGreaterThanOrEqual(50);
    expect(await ledger.balance(id)).toBe(900);
    await ledger.close();
  });

  it('commits the reservations of one turn together: 50 at once write a few frames, and leave no mark once delivered', async () => {
    const file = tempFile();
    const ledger = new SqliteLedger({ path: file });
    const { id } = await ledger.createAccount({ credits: 1000 });
    emptyWal(file);
    // Every delivery waits until all 50 are reserved, and the frames are read then: the charges and their marks only.
    let reserved = 0;
    let release!: () => void;
    const allReserved = new Promise<void>((resolve) => (release = resolve));
    let framesReserved = -1;
    const delivered = await Promise.all(Array.from({ length: 50 }, () => ledger.chargeOnDelivery(id, 2, undefined, async () => {
      if (++reserved === 50) {
        framesReserved = walFrames(file);
        release();
      }
      await allReserved;
    })));
    expect(delivered.every((c) => c.ok)).toBe(true);
    expect(framesReserved).toBeGreaterThan(0);
    expect(framesReserved).toBeLessThan(20);
    expect(await ledger.pendingDeliveries()).toBe(0);
    expect(await ledger.balance(id)).toBe(900);
    await ledger.close();
  });

  it('keeps the writes of one turn apart: a refused charge and a failed refund change nothing of the others', async () => {
    const ledger = new SqliteLedger({ path: tempFile() });
    const { id } = await ledger.createAccount({ credits: 10 });
    const first = await ledger.charge(id, 4);
    const [a, b, c, d] = await Promise.allSettled([
      ledger.charge(id, 5),
      ledger.charge(id, 5),
      ledger.refund('ch_unknown'),
      ledger.refund(first.ok ? first.chargeId : ''),
    ]);
    expect(a).toMatchObject({ status: 'fulfilled', value: { ok: true, balance: 1 } });
    expect(b).toMatchObject({ status: 'fulfilled', value: { ok: false, balance: 1, shortBy: 4 } });
    expect(c).toMatchObject({ status: 'rejected', reason: { code: 'ERR_UNKNOWN_CHARGE' } });
    expect(d).toEqual({ status: 'fulfilled', value: 5 });
    expect(await ledger.balance(id)).toBe(5);
    expect(balanceFromEntries(await ledger.history(id))).toBe(5);
    await ledger.close();
  });

  it('commits a charge asked for just before close()', async () => {
    const file = tempFile();
    const ledger = new SqliteLedger({ path: file });
    const { id } = await ledger.createAccount({ credits: 10 });
    const charged = ledger.charge(id, 3);
    await ledger.close();
    expect(await charged).toMatchObject({ ok: true, balance: 7 });
    const reopened = new SqliteLedger({ path: file });
    expect(await reopened.balance(id)).toBe(7);
    await expect(reopened.close()).resolves.toBeUndefined();
  });
});

describe('SqliteLedger across processes', () => {
  beforeAll(ensureBuilt, 60_000);

  it('settles 4 processes × 50 charges on one file exactly', async () => {
    const file = tempFile();
    const initial = 1000;
    const ledger = new SqliteLedger({ path: file });
    const { id } = await ledger.createAccount({ credits: initial });
    const outputs = await Promise.all([1, 2, 3, 4].map((seed) => runNode('chargeWorker.mjs', [file, id, '50', String(seed)])));
    const results = outputs.map((out) => JSON.parse(out) as { accepted: Array<{ chargeId: string; amount: number }>; refused: number });
    const accepted = results.flatMap((r) => r.accepted);
    const final = await ledger.balance(id);
    expect(accepted.length + results.reduce((sum, r) => sum + r.refused, 0)).toBe(200);
    expect(results.some((r) => r.refused > 0)).toBe(true);
    expect(final).toBeGreaterThanOrEqual(0);
    expect(accepted.reduce((sum, c) => sum + c.amount, 0)).toBe(initial - final);
    const charges = (await ledger.history(id, 1000)).filter((e) => e.kind === 'charge');
    expect(new Set(charges.map((e) => e.id))).toEqual(new Set(accepted.map((c) => c.chargeId)));
    await ledger.close();
  });

  it('keeps every charge that returned before the process was killed', async () => {
    const file = tempFile();
    const initial = 1_000_000_000;
    const setup = new SqliteLedger({ path: file });
    const { id } = await setup.createAccount({ credits: initial });
    await setup.close();

    const printed = await new Promise<Array<{ chargeId: string; amount: number }>>((resolve, reject) => {
      const child = spawn(process.execPath, [join(fixtures, 'chargeUntilKilled.mjs'), file, id], { stdio: ['ignore', 'pipe', 'inherit'] });
      let buffer = '';
      let lines: string[] = [];
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffer += chunk;
        lines = buffer.split('\n').slice(0, -1);
        if (lines.length >= 50 && !child.killed) child.kill('SIGKILL');
      });
      child.on('error', reject);
      child.on('close', (_code, signal) => {
        if (signal !== 'SIGKILL') return reject(new Error(`child ended without being killed (${signal})`));
        resolve(buffer.split('\n').slice(0, -1).map((line) => {
          const [chargeId, amount] = line.split(' ');
          return { chargeId: chargeId!, amount: Number(amount) };
        }));
      });
    });
    expect(printed.length).toBeGreaterThanOrEqual(50);

    const ledger = new SqliteLedger({ path: file });
    const entries = await ledger.history(id, 1_000_000);
    const byId = new Map(entries.map((e) => [e.id, e]));
    for (const { chargeId, amount } of printed) expect(byId.get(chargeId)).toMatchObject({ kind: 'charge', amount });
    const balance = await ledger.balance(id);
    const charged = entries.filter((e) => e.kind === 'charge').reduce((sum, e) => sum + e.amount, 0);
    expect(charged).toBeGreaterThanOrEqual(printed.reduce((sum, c) => sum + c.amount, 0));
    expect(balance).toBe(initial - charged);
    expect(balanceFromEntries(entries)).toBe(balance);
    expect(entries[0]!.balanceAfter).toBe(balance);
    await ledger.close();
  });
});

/** Starts the deliverUntilKilled fixture and resolves with the child and the charge id it reserved. */
function reserveInChild(file: string, accountId: string, amount: number): Promise<{ child: ReturnType<typeof spawn>; chargeId: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(fixtures, 'deliverUntilKilled.mjs'), file, accountId, String(amount)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buffer = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.includes('\n')) resolve({ child, chargeId: buffer.trim() });
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`the child exited (${code}) before reserving`)));
  });
}

describe('SqliteLedger reservations of a process that died (issue 26)', () => {
  beforeAll(ensureBuilt, 60_000);

  it('refunds a reservation at the next open once its process was killed mid-delivery, and not while it lives', async () => {
    const file = tempFile();
    const setup = new SqliteLedger({ path: file });
    const { id } = await setup.createAccount({ credits: 2000 });
    await setup.close();

    const { child, chargeId } = await reserveInChild(file, id, 500);
    // Opened while the holder lives: the reservation stands.
    const meanwhile = new SqliteLedger({ path: file });
    expect(await meanwhile.balance(id)).toBe(1500);
    expect(await meanwhile.pendingDeliveries()).toBe(1);
    expect(await meanwhile.recoverUndelivered()).toBe(0);
    await meanwhile.close();

    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGKILL');
    });
    const reopened = new SqliteLedger({ path: file });
    expect(await reopened.balance(id)).toBe(2000);
    expect(await reopened.pendingDeliveries()).toBe(0);
    const entries = await reopened.history(id);
    expect(entries.filter((e) => e.kind === 'refund').map((e) => [e.refundOf, e.amount])).toEqual([[chargeId, 500]]);
    expect(balanceFromEntries(entries)).toBe(2000);
    // Opening again refunds nothing more.
    await reopened.close();
    const again = new SqliteLedger({ path: file });
    expect(await again.balance(id)).toBe(2000);
    expect((await again.history(id)).filter((e) => e.kind === 'refund')).toHaveLength(1);
    await again.close();
  });

  it('clears the mark once delivered, and refunds it with the mark when the delivery fails', async () => {
    const file = tempFile();
    const ledger = new SqliteLedger({ path: file });
    const { id } = await ledger.createAccount({ credits: 100 });
    let release: () => void = () => undefined;
    const delivered = ledger.chargeOnDelivery(id, 30, 'ok', () => new Promise<void>((resolve) => { release = resolve; }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(await ledger.pendingDeliveries()).toBe(1);
    // Another ledger of this live process leaves it alone.
    const other = new SqliteLedger({ path: file });
    expect(await other.balance(id)).toBe(70);
    await other.close();
    release();
    await expect(delivered).resolves.toMatchObject({ ok: true, balance: 70 });
    expect(await ledger.pendingDeliveries()).toBe(0);
    await expect(ledger.chargeOnDelivery(id, 20, 'gone', async () => { throw new Error('client gone'); })).rejects.toThrow('client gone');
    expect(await ledger.pendingDeliveries()).toBe(0);
    expect(await ledger.balance(id)).toBe(70);
    await ledger.close();
  });

  it('adds the pending table to a file of schema version 1', async () => {
    const file = tempFile();
    const first = new SqliteLedger({ path: file });
    const { id } = await first.createAccount({ credits: 5 });
    await first.close();
    const db = new Database(file);
    db.exec('DROP TABLE pending_deliveries');
    db.pragma('user_version = 1');
    db.close();
    const ledger = new SqliteLedger({ path: file });
    expect(await ledger.balance(id)).toBe(5);
    expect(await ledger.pendingDeliveries()).toBe(0);
    await ledger.close();
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(2);
    check.close();
  });
});
