// The event-loop delay of a benchmark's server process, read by the parent. /health latency measured from another
// process on a shared machine includes the time the server waited for a core; the loop delay does too, so the
// server's main thread is also timed on the CPU (Linux schedstat): the part of each delay it spent running is the
// delay its own work caused, the rest is waiting for a core that other processes held.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** On-CPU and run-queue wait time of a process's main thread so far, in ms (Linux; NaN elsewhere). */
export function mainThreadSchedule(pid = process.pid) {
  try {
    const [oncpu, waiting] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { cpuMs: oncpu / 1e6, waitMs: waiting / 1e6 };
  } catch {
    return { cpuMs: NaN, waitMs: NaN };
  }
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

/**
 * In the server's child process: samples the event-loop delay every `resolution` ms and answers a parent's
 * `{loopDelay: 'read'}` message, then starts a new window, with:
 * `p50`, `p99`, `max`: the delay (node's monitorEventLoopDelay), ms;
 * `ownP99`, `ownMax`: per sample, the part of the delay the main thread spent on the CPU (its own work), ms;
 * `waitShare`: the share of the window the main thread spent runnable but waiting for a core;
 * `cpuShare`: the process's CPU time (all threads) over the window, in cores.
 */
export function answerLoopDelay(resolution = 5) {
  const histogram = monitorEventLoopDelay({ resolution });
  histogram.enable();
  let own = [];
  let last = performance.now();
  let lastSchedule = mainThreadSchedule();
  const sampler = setInterval(() => {
    const now = performance.now();
    const schedule = mainThreadSchedule();
    const late = Math.max(0, now - last - resolution);
    own.push(Math.min(late, schedule.cpuMs - lastSchedule.cpuMs));
    last = now;
    lastSchedule = schedule;
  }, resolution);
  sampler.unref();
  let cpu = process.cpuUsage();
  let since = performance.now();
  let windowSchedule = mainThreadSchedule();
  process.on('message', (message) => {
    if (message?.loopDelay !== 'read') return;
    const used = process.cpuUsage(cpu);
    const elapsed = performance.now() - since;
    const schedule = mainThreadSchedule();
    const ms = (ns) => ns / 1e6;
    process.send({
      loopDelay: {
        p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max),
        ownP99: quantile(own, 0.99), ownMax: Math.max(0, ...own),
        waitShare: (schedule.waitMs - windowSchedule.waitMs) / elapsed,
        cpuShare: (used.user + used.system) / 1000 / elapsed,
      },
    });
    histogram.reset();
    own = [];
    cpu = process.cpuUsage();
    since = performance.now();
    windowSchedule = schedule;
  });
}

/** In the parent: the child's loop delay since the last read (see {@link answerLoopDelay}); starts a new window. */
export function readLoopDelay(child) {
  return new Promise((resolve) => {
    const onMessage = (message) => {
      if (message?.loopDelay === undefined) return;
      child.off('message', onMessage);
      resolve(message.loopDelay);
    };
    child.on('message', onMessage);
    child.send({ loopDelay: 'read' });
  });
}
