import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { ApiError, toApiError } from '@content-analysis/engine';
import type { Engine } from '@content-analysis/engine';
import { ProgressBar } from './progress.js';

/**
 * Batch mode (`--jsonl`): one request per line, in the endpoint's own fields, in; one result per line, in the
 * same order, out. A bad line gives an error line `{line, status, error, description}` and the batch goes on.
 * Blank lines are skipped. Returns the number of failed lines.
 */
export async function runBatch(
  engine: Engine,
  featureId: string,
  input: Readable,
  output: Writable,
  progressStream: NodeJS.WriteStream,
  options: { total?: number; forceProgress?: boolean } = {},
): Promise<{ done: number; failed: number }> {
  const progress = new ProgressBar(progressStream, options.forceProgress);
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNumber = 0;
  let done = 0;
  let failed = 0;
  for await (const line of lines) {
    lineNumber++;
    if (line.trim().length === 0) continue;
    let out: Record<string, unknown>;
    try {
      let request: unknown;
      try {
        request = JSON.parse(line);
      } catch (error) {
        throw new ApiError('BAD_REQUEST', `Malformed JSON: ${(error as Error).message}`);
      }
      out = (await engine.run(featureId, request)).result;
    } catch (error) {
      failed++;
      out = { line: lineNumber, ...toApiError(error).toBody() };
    }
    done++;
    if (!output.write(`${JSON.stringify(out)}\n`)) await new Promise((resolve) => output.once('drain', resolve));
    progress.update(done, failed, options.total);
  }
  progress.finish(done, failed);
  return { done, failed };
}
