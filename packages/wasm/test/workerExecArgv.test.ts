import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { workerExecArgv } from '../src/index.js';

/** Starts a worker with `execArgv` and returns the execArgv it reports. */
async function startWorker(execArgv: string[]): Promise<string[]> {
  const worker = new Worker("require('node:worker_threads').parentPort.postMessage(process.execArgv)", { eval: true, execArgv });
  const [message] = await once(worker, 'message');
  await worker.terminate();
  return message as string[];
}

describe('workerExecArgv', () => {
  it('drops the resolution conditions and the options a worker refuses, and keeps the rest in order', () => {
    expect(workerExecArgv([
      '--conditions', 'a:source', '--expose-gc', '--trace-warnings', '--conditions=b', '--max-old-space-size=4096', '-C', 'c',
      '--stack-size=900', '-C=d', '--require', 'x.cjs', '--enable-source-maps',
    ])).toEqual(['--trace-warnings', '--require', 'x.cjs', '--enable-source-maps']);
    expect(workerExecArgv([])).toEqual([]);
  });

  it('drops the value of a refused option given as a separate word', () => {
    expect(workerExecArgv(['--title', 'server', '--no-warnings'])).toEqual(['--no-warnings']);
    expect(workerExecArgv(['--max-old-space-size', '100', '--import', 'data:text/javascript,0'])).toEqual(['--import', 'data:text/javascript,0']);
  });

  it("drops the main script's --eval or --print code and its --input-type", () => {
    expect(workerExecArgv(['--expose-gc', '--input-type=module', '-e', 'await work()', '--trace-warnings'])).toEqual(['--trace-warnings']);
    expect(workerExecArgv(['-pe', 'process.version', '--no-warnings'])).toEqual(['--no-warnings']);
    expect(workerExecArgv(['-p', '-e', '1 + 1', '--eval=2', '--print', 'x', '--input-type', 'commonjs', '--no-deprecation'])).toEqual(['--no-deprecation']);
  });

  it('gives options a worker starts with, where the raw ones make the Worker constructor throw', async () => {
    const argv = ['--expose-gc', '--zero-fill-buffers', '--no-warnings'];
    expect(() => new Worker('', { eval: true, execArgv: argv })).toThrow(expect.objectContaining({ code: 'ERR_WORKER_INVALID_EXEC_ARGV' }));
    expect(await startWorker(workerExecArgv(argv))).toEqual(['--no-warnings']);
  });

  it('reads process.execArgv when given no argument, and returns a copy the caller may change', () => {
    const first = workerExecArgv();
    first.push('--changed');
    expect(workerExecArgv()).not.toContain('--changed');
  });
});
