import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countWords } from '@content-analysis/credits';
import { attacks, cli, OPENING_CREDITS, RSS_BOUND_MIB, replayAttack, SITE, startServeTopology, startSite } from '../../../benchmarks/server-attacks/replayLib.mjs';
import type { Attack, Site, Topology } from '../../../benchmarks/server-attacks/replayLib.mjs';
import { buildWorkspace } from './build.js';

/**
 * A fast subset of the attack replay (`node benchmarks/server-attacks/replay.mjs`, issue 26) against `content-analysis
 * serve` as a process of the built CLI, on its embedded SQLite ledger, accounts and tokens made with the CLI, every
 * attack URL answered by a local attack site: one or two attacks of each kind. For each, the node answers what the
 * attack allows, stays up (/health 200 after), stays under the README's memory bound, and the ledger holds exactly
 * the credits the answers cost (the price list applied to what a reader counts), none for a refusal.
 */
const SUBSET: Record<string, Partial<Attack>> = {
  'docx-1.5M-paragraphs': {},
  'pdf-flate-1GiB': {},
  'html-300k-tags': {},
  'png-7000x7000 x60': { at: 6, credits: 6 * 300 },
  'png-100Mpx-declared': {},
  'advanced-png-100Mpx': {},
  'plagiarism-1,1,1-120k': {},
  'ai-text-joined-by-.': {},
  "ai-text-joined-by-'": {},
  'website-70-then-20k-ai-text': {},
  'race-40-images-balance-for-6': {},
  'mcp-duplicate-id-batch': {},
};

let site: Site;
let dir: string;
let t: Topology;
let all: Attack[];
/** Each attack's account and token, made with the CLI before the attacks (four at a time). */
const accounts = new Map<string, { id: string; token: string }>();

beforeAll(async () => {
  buildWorkspace();
  site = await startSite();
  site.prepare(['/manyparas.docx', '/bomb.pdf', '/tags.html', '/pixels.png', '/huge.png', '/small.png']);
  dir = mkdtempSync(join(tmpdir(), 'attack-replay-'));
  t = await startServeTopology({ dir, sitePort: site.port, warm: false });
  all = attacks(site);
  const names = Object.keys(SUBSET);
  for (let i = 0; i < names.length; i += 4) {
    await Promise.all(names.slice(i, i + 4).map(async (name) => {
      const attack = { ...all.find((a) => a.name === name)!, ...SUBSET[name] };
      accounts.set(name, await t.account(attack.credits ?? OPENING_CREDITS));
    }));
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('issue 26 attacks replayed against serve (SQLite ledger)', () => {
  it.each(Object.keys(SUBSET))('%s: answered as allowed, node up, memory bounded, charged exactly', async (name) => {
    const attack = all.find((a) => a.name === name);
    expect(attack, name).toBeDefined();
    const row = await replayAttack(t, { ...attack!, ...SUBSET[name] }, site, { words: countWords, account: accounts.get(name)! });
    expect(row.problems).toEqual([]);
    expect(row.up).toBe(true);
    expect(row.charged).toBe(row.expected);
    for (const peak of Object.values(row.rss_peak_mib)) expect(peak).toBeLessThan(RSS_BOUND_MIB);
    expect(Object.keys(row.statuses).every((s) => attack!.allowed.includes(Number(s.split(' ')[0])))).toBe(true);
    if (name.startsWith('ai-text-joined')) expect(row.charged).toBe(172);
    if (name.startsWith('website')) expect([row.fetched, row.charged]).toEqual([1, 70]);
    if (name.startsWith('race')) expect(row.statuses).toEqual({ 200: 6, '402 PAYMENT_REQUIRED': 34 });
  }, 90_000);

  it('refunds the reservation of a serve killed mid-request once it starts again on the file', async () => {
    const own = mkdtempSync(join(tmpdir(), 'attack-replay-kill-'));
    const first = await startServeTopology({ dir: own, sitePort: site.port, warm: false });
    let second: Topology | undefined;
    try {
      const { id, token } = await first.account(2000);
      // The advanced detection reserves its 500 credits, then fetches an image that never comes.
      const pending = fetch(`${first.nodes[0]!.url}/v2/advanced-image-detection`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ image_url: `${SITE}/stall` }),
      }).then((r) => r.status, () => 'lost');
      const deadline = Date.now() + 30_000;
      while ((await first.ledger.balance(id)) !== 1500 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await first.ledger.balance(id)).toBe(1500);
      first.nodes[0]!.child.kill('SIGKILL');
      await first.nodes[0]!.exited;
      expect(await pending).toBe('lost');
      expect(await first.ledger.balance(id)).toBe(1500);
      // The next serve on the file refunds it as its ledger opens; the CLI reads the balance back.
      second = await startServeTopology({ dir: own, sitePort: site.port, warm: false });
      expect(await second.ledger.balance(id)).toBe(2000);
      expect(await cli(['credits', 'show', '--account', id, '--db', join(own, 'ledger.sqlite')])).toMatchObject({ balance: 2000 });
    } finally {
      await first.close();
      await second?.close();
      rmSync(own, { recursive: true, force: true });
    }
  }, 90_000);
});
