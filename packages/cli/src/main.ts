import type { Readable, Writable } from 'node:stream';
import { Engine, openApiDocument, toApiError } from '@content-analysis/engine';
import type { Feature } from '@content-analysis/engine';
import { runBatch } from './batch.js';
import { calibrateCommand, readCalibrationProfile } from './calibrate.js';
import { asksForHelp, parseCommandLine } from './commandLine.js';
import { CliError, UsageError } from './errors.js';
import { forensicsCommand, imageMetadataCommand } from './imageCommands.js';
import { forensicsBenchCommand } from './forensicsBench.js';
import { loadDocuments, missingCollection, servicesFrom } from './collections.js';
import { MODEL_FLAGS, pluggedEngineOptions } from './customModels.js';
import { assertNotDirectory, readImageInput, readStream, readTextInput } from './inputs.js';
import { accountCommand } from './accountCommands.js';
import { sourcesPath } from './ledgerFile.js';
import { SourceIndex } from '@content-analysis/plagiarism';
import { openPostgresIndex, redact, serve, serveStores } from './serve.js';
import { commandUsage, globalUsage } from './usage.js';
import { worker } from './worker.js';

export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

/** Features whose requests can select a plugged model (`--model NAME=DIR`, `version: "custom:NAME"`). */
const PLUGGABLE = new Set(['ai-content-detection', 'image-detection']);

function writeJson(out: Writable, value: unknown): void {
  out.write(`${JSON.stringify(value, null, 2)}\n`);
}

async function featureCommand(feature: Feature<any, any>, argv: string[], io: CliIo): Promise<number> {
  const binding = feature.cli!;
  const fieldOptions = Object.fromEntries(
    [...binding.inputs, ...(binding.options ?? [])].map((i) => [i.field.replace(/_/g, '-'), { type: 'string' as const }]),
  );
  const { values, positionals } = parseCommandLine(
    argv,
    {
      ...fieldOptions,
      jsonl: { type: 'string' },
      progress: { type: 'boolean' },
      compact: { type: 'boolean' },
      sources: { type: 'string' },
      index: { type: 'string' },
      evidence: { type: 'string' },
      calibration: { type: 'string' },
      ...(PLUGGABLE.has(feature.id) ? MODEL_FLAGS : {}),
    },
    ['jsonl'],
  );
  if (values.calibration !== undefined && feature.id !== 'ai-content-detection') {
    throw new UsageError(`${binding.command}: --calibration applies to ai-text only`);
  }
  const aiTextCalibration = values.calibration === undefined ? undefined : await readCalibrationProfile(values.calibration);
  const services = servicesFrom(values);
  const missing = missingCollection(feature.id, services);
  if (missing !== undefined) throw new CliError(missing);
  const engine = new Engine({ services, ...(aiTextCalibration ? { aiTextCalibration } : {}), ...(await pluggedEngineOptions(values)) });
  if (values.jsonl !== undefined) {
    const fromStdin = values.jsonl === '-' || values.jsonl === '';
    if (!fromStdin) await assertNotDirectory(values.jsonl);
    const input = fromStdin ? io.stdin : (await import('node:fs')).createReadStream(values.jsonl);
    const { failed } = await runBatch(engine, feature.id, input, io.stdout, io.stderr, { forceProgress: values.progress === true });
    return failed > 0 ? 1 : 0;
  }
  const request: Record<string, string> = {};
  let next = 0;
  for (const input of binding.inputs) {
    const literal = (values as Record<string, string | boolean | undefined>)[input.field.replace(/_/g, '-')];
    if (typeof literal === 'string') {
      request[input.field] = literal;
      continue;
    }
    const source = positionals[next++];
    if (source === undefined) throw new UsageError(`${binding.command}: missing <${input.field.replace(/_/g, '-')}> (${input.description})`);
    const flag = input.field.replace(/_/g, '-');
    try {
      if (input.kind === 'image') Object.assign(request, await readImageInput(source, input.field, { stdin: io.stdin }));
      else request[input.field] = await readTextInput(source, { stdin: io.stdin });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const hint = input.kind === 'image' ? 'give an image file, an http(s) URL or - for standard input'
        : `to give the text itself, use --${flag} ${JSON.stringify(source.length > 40 ? `${source.slice(0, 37)}...` : source)}`;
      throw new CliError(`ENOENT: no such file ${JSON.stringify(source)}; ${hint}`, { cause: error });
    }
  }
  if (next < positionals.length) throw new UsageError(`${binding.command}: unexpected argument "${positionals[next]}"`);
  for (const option of binding.options ?? []) {
    const value = (values as Record<string, string | boolean | undefined>)[option.field.replace(/_/g, '-')];
    if (typeof value === 'string') request[option.field] = value;
  }
  const { result } = await engine.run(feature.id, request);
  if (values.compact) io.stdout.write(`${JSON.stringify(result)}\n`);
  else writeJson(io.stdout, result);
  return 0;
}

async function indexCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, {
    index: { type: 'string' }, database: { type: 'string' }, 'database-schema': { type: 'string' },
  });
  if (positionals[0] !== 'add') throw new UsageError(positionals[0] === undefined ? 'index: missing subcommand' : `Unknown command: index ${positionals[0]}`);
  if (positionals.length !== 2) throw new UsageError('index add: expected one <folder|jsonl>');
  const stores = serveStores(values, io.env);
  const shared = await openPostgresIndex(stores, values.index, io.env);
  if (shared !== undefined) {
    try {
      const added = await shared.addManyAsync(loadDocuments(positionals[1]!));
      writeJson(io.stdout, { index: `${redact(stores.database!)} schema ${stores.databaseSchema}`, added, documents: shared.size });
    } finally {
      await shared.closeAsync();
    }
    return 0;
  }
  const path = sourcesPath(values.index, io.env);
  const index = SourceIndex.open({ path });
  try {
    const added = index.addMany(loadDocuments(positionals[1]!));
    writeJson(io.stdout, { index: path, added, documents: index.size });
  } finally {
    index.close();
  }
  return 0;
}

/** Runs the CLI; resolves with the exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const engine = new Engine();
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      io.stdout.write(`${(command === 'help' ? commandUsage(engine, rest[0]) : undefined) ?? globalUsage(engine)}\n`);
      return command === undefined ? 2 : 0;
    }
    const ownUsage = commandUsage(engine, command);
    if (ownUsage !== undefined && asksForHelp(rest)) {
      io.stdout.write(`${ownUsage}\n`);
      return 0;
    }
    if (command === 'serve') return await serve(rest, io);
    if (command === 'worker') return await worker(rest, io);
    if (command === 'calibrate') return await calibrateCommand(rest, io);
    if (command === 'tokens' || command === 'credits' || command === 'accounts') return await accountCommand(command, rest, io);
    if (command === 'index') return indexCommand(rest, io);
    if (command === 'image-metadata') return await imageMetadataCommand(rest, io.stdout, (m) => new UsageError(m));
    if (command === 'forensics') return await forensicsCommand(rest, io.stdout, (m) => new UsageError(m));
    if (command === 'forensics-bench') return await forensicsBenchCommand(rest, io.stdout, (m) => new UsageError(m));
    if (command === 'openapi') {
      writeJson(io.stdout, openApiDocument(engine.features));
      return 0;
    }
    const feature = engine.features.list().find((f) => f.cli?.command === command);
    if (!feature) throw new UsageError(`Unknown command: ${command}`);
    return await featureCommand(feature, rest, io);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr.write(`content-analysis: ${(error as Error).message}\n\n${commandUsage(engine, command) ?? globalUsage(engine)}\n`);
      return 2;
    }
    if (error instanceof CliError) {
      io.stderr.write(`content-analysis: ${error.message}\n`);
      return 1;
    }
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      io.stderr.write(`content-analysis: ${(error as Error).message}\n`);
      return 1;
    }
    const apiError = toApiError(error);
    if (apiError.code === 'INTERNAL_SERVER_ERROR') io.stderr.write(`content-analysis: ${(error as Error).stack ?? String(error)}\n`);
    else io.stderr.write(`content-analysis: ${apiError.code}: ${apiError.description}\n`);
    writeJson(io.stdout, apiError.toBody());
    return 1;
  }
}

export { readStream };
