// Issue 26's input attacks (and the credit race, the duplicate-id tool batch and the stalled tool-server bodies)
// replayed against the built CLI: `serve` on its embedded SQLite ledger, then two API nodes and a worker on
// PostgreSQL and Redis. Per attack: the answers, every process still up (/health 200 after), the peak resident
// memory of every process (VmRSS sampled every 20 ms), the credits charged (from the ledger) against the credits
// expected (the price list applied to what a reader counts), and GET /health latency during the attack (a separate
// process polls every node every 10 ms). Prints a table and writes JSON.
// Usage: node scripts/setup.mjs && nice -n 10 node benchmarks/server-attacks/replay.mjs
//   [--topology serve|scale-out|both] [--only name,name] [--json out.json] [--bound-mib 2048 (RSS_BOUND_MIB)]
//   PostgreSQL and Redis from CONTENT_ANALYSIS_TEST_POSTGRES / CONTENT_ANALYSIS_TEST_REDIS
//   (default postgres://postgres@127.0.0.1:5432/test, redis://127.0.0.1:6379).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { attacks, killStarted, pollHealth, replayAttack, ROOT, RSS_BOUND_MIB, startScaleOut, startServeTopology, startSite } from './replayLib.mjs';

if (process.argv[2] === '--poll') {
  await pollHealth(process.argv.slice(3));
} else {
  await main();
}

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}

async function main() {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      killStarted();
      process.exit(130);
    });
  }
  const which = option('topology', 'both');
  const only = option('only', undefined)?.split(',');
  const out = option('json', undefined);
  const bound = Number(option('bound-mib', RSS_BOUND_MIB));
  const postgres = process.env.CONTENT_ANALYSIS_TEST_POSTGRES || 'postgres://postgres@127.0.0.1:5432/test';
  const redis = process.env.CONTENT_ANALYSIS_TEST_REDIS || 'redis://127.0.0.1:6379';
  const { countWords } = await import(pathToFileURL(join(ROOT, 'packages', 'credits', 'dist', 'index.js')).href);
  const site = await startSite();
  site.prepare();
  // --only: names or prefixes of names (`advanced-png-7000x7000` for `advanced-png-7000x7000 x8`).
  const list = attacks(site).filter((a) => !only || only.some((o) => o && a.name.startsWith(o)));
  const rows = [];
  const dir = mkdtempSync(join(tmpdir(), 'replay-'));
  const loads = [loadavg()[0]];
  try {
    for (const name of which === 'both' ? ['serve', 'scale-out'] : [which]) {
      const started = performance.now();
      const t = name === 'serve'
        ? await startServeTopology({ dir, sitePort: site.port })
        : await startScaleOut({ sitePort: site.port, postgres, redis });
      console.error(`${t.name}: started in ${((performance.now() - started) / 1000).toFixed(1)} s (pids ${t.processes.map((p) => `${p.name} ${p.pid}`).join(', ')})`);
      try {
        for (const attack of list) {
          const row = await replayAttack(t, attack, site, { words: countWords });
          row.load = +loadavg()[0].toFixed(2);
          loads.push(row.load);
          for (const [p, mib] of Object.entries(row.rss_peak_mib)) if (mib > bound) row.problems.push(`${p} peak ${mib} MiB over the bound ${bound} MiB`);
          rows.push(row);
          console.error(`  ${row.attack}: ${JSON.stringify(row.statuses)} charged ${row.charged}/${row.expected} peak ${JSON.stringify(row.rss_peak_mib)} ` +
            `health p99 ${row.health_p99_ms} ms ${row.problems.length ? `PROBLEMS ${row.problems.join('; ')}` : 'ok'}`);
        }
      } finally {
        for (const p of t.processes) {
          const lines = p.log.filter((l) => /"level":"error"|FATAL|heap out of memory/i.test(l));
          if (lines.length) console.error(`  ${p.name} logged ${lines.length} error line(s), first: ${lines[0].slice(0, 300)}`);
        }
        await t.close();
      }
    }
  } finally {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`Attack replay, Node ${process.version}, ${availableParallelism()} cores, load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}, ` +
    `RSS bound ${bound} MiB per process, ${new Date().toISOString()}`);
  console.log('| topology | attack | item | answers | up | peak RSS MiB (before) | charged / expected | /health n, p50 / p99 / max ms | p99 / quiet | s | load | problems |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const quiet = rows.find((q) => q.topology === r.topology && q.attack === 'quiet');
    const rss = Object.entries(r.rss_peak_mib).map(([p, v]) => `${p} ${v} (${r.rss_before_mib[p]})`).join(', ');
    const answers = Object.entries(r.statuses).map(([k, v]) => `${v} x ${k}`).join(', ') || '-';
    const ratio = quiet ? `x${(r.health_p99_ms / quiet.health_p99_ms).toFixed(1)}` : '-';
    console.log(`| ${r.topology} | ${r.attack} | ${r.item} | ${answers} | ${r.up ? 'yes' : 'NO'} | ${rss} | ${r.charged} / ${r.expected} | ` +
      `${r.health_n}, ${r.health_p50_ms} / ${r.health_p99_ms} / ${r.health_max_ms} | ${ratio} | ${r.seconds} | ${r.load} | ${r.problems.join('; ') || '-'} |`);
  }
  if (out) writeFileSync(out, `${JSON.stringify({ node: process.version, cores: availableParallelism(), bound_mib: bound, rows }, null, 2)}\n`);
  const failed = rows.filter((r) => r.problems.length > 0);
  console.log(`${rows.length - failed.length} of ${rows.length} replays held (node up, memory under ${bound} MiB, charged as expected)`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}
