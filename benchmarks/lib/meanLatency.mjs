import { Bench } from 'tinybench';

/**
 * Mean latency in ms of one async or sync task, measured by tinybench for at least `time` ms and `iterations` runs
 * after `warmupIterations`; throws when the task failed.
 */
export async function meanLatency(fn, { time = 3000, iterations = 8, warmupIterations = 2 } = {}) {
  const bench = new Bench({ time, iterations, warmupIterations });
  bench.add('task', fn);
  await bench.run();
  const result = bench.tasks[0].result;
  if (result.state !== 'completed') throw new Error(`${result.state} ${result.error ?? ''}`);
  return result.latency.mean;
}
