// Piscina worker module for pool-timeline.mjs: the forensics worker's task handlers, each wrapped to report its start,
// end and this thread's CPU time during it (/proc/thread-self/schedstat, Linux) on a BroadcastChannel. Not a product
// file: the benchmark points its own Piscina at it (`new ForensicsPool({ piscina })`).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { BroadcastChannel, threadId } from 'node:worker_threads';

// The build to trace, set by pool-timeline.mjs (worker threads get a copy of its environment).
const worker = await import(join(process.env.FORENSICS_TIMELINE_DIST, 'worker.js'));
const channel = new BroadcastChannel('forensics-pool-timeline');
const stat = '/proc/thread-self/schedstat';
const threadCpu = existsSync(stat) ? () => Number(readFileSync(stat, 'utf8').split(' ')[0]) / 1e6 : () => Number.NaN;
// This thread's minor page faults so far (/proc/thread-self/stat, field 10; the fields after the parenthesised name).
const threadFaults = existsSync('/proc/thread-self/stat') ? () => Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[7]) : () => Number.NaN;
// Each garbage collection of this thread, reported as it is observed (after it ended) with its start and duration.
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) channel.postMessage({ gc: true, t0: performance.timeOrigin + e.startTime, ms: e.duration, threadId });
}).observe({ entryTypes: ['gc'] });

const traced = (handler, name) => async (task) => {
  const t0 = performance.timeOrigin + performance.now(), c0 = threadCpu(), f0 = threadFaults();
  const result = await handler(task);
  const t1 = performance.timeOrigin + performance.now(), c1 = threadCpu(), f1 = threadFaults();
  channel.postMessage({ name: task?.id ? `${name} ${task.id}` : name, t0, t1, cpu: c1 - c0, faults: f1 - f0, threadId });
  return result;
};

export default traced(worker.default, 'kernel');
export const runBand = traced(worker.runBand, 'band'), mergeBands = traced(worker.mergeBands, 'merge'), lumaBand = traced(worker.lumaBand, 'luma'),
  decodeShared = traced(worker.decodeShared, 'decode'), recompressBand = traced(worker.recompressBand, 'round trip'),
  jpegCoefficients = traced(worker.jpegCoefficients, 'coefficients'), standardise = traced(worker.standardise, 'standardise'),
  fuseCombine = traced(worker.fuseCombine, 'fuse'), decodeRows = worker.decodeRows ? traced(worker.decodeRows, 'decode rows') : undefined;
