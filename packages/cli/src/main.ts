import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { ForensicsPool } from '@content-analysis/forensics';
import type { Readable, Writable } from 'node:stream';
import { Engine, openApiDocument, toApiError } from '@content-analysis/engine';
import type { Feature } from '@content-analysis/engine';
import { createApiServer, listen } from '@content-analysis/server';
import { runBatch } from './batch.js';
import { forensicsCommand, imageMetadataCommand } from './imageCommands.js';
import { loadDocuments, servicesFrom } from './collections.js';
import { readImageInput, readStream, readTextInput } from './inputs.js';
import { DEFAULT_ACCOUNT, ledgerPath, openLedger, sourcesPath } from './ledgerFile.js';
import { SourceIndex } from '@content-analysis/plagiarism';

export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

/** Thrown for a wrong command line; the CLI prints its message and the usage, and exits 2. */
export class UsageError extends Error {
  readonly code = 'CLI_USAGE';
}

function usage(engine: Engine): string {
  const features = engine.features
    .list()
    .filter((f) => f.cli)
    .map((f) => {
      const flag = (field: string) => field.replace(/_/g, '-');
      const args = [
        ...f.cli!.inputs.map((i) => `<${flag(i.field)}>`),
        ...(f.cli!.options ?? []).map((o) => `[--${flag(o.field)} <${flag(o.field)}>]`),
      ].join(' ');
      return `  ${`${f.cli!.command} ${args}`.padEnd(43)} ${f.cli!.summary}`;
    });
  return [
    'Usage: content-analysis <command> [options]',
    '',
    'Feature commands (no account needed; each input is a file, an http(s) URL, or - for standard input):',
    ...features,
    '  image-metadata <image>                      metadata, exif, c2pa and AI watermark fields of an image',
    '  forensics <image> [--out <dir>]             advanced forensic analysis; --out writes heatmaps and raw maps',
    '  <command> --jsonl [file|-]                  batch: one JSON request per line in, one result per line out',
    '    --sources <folder|jsonl>                  plagiarism sources to check against (also --index <file> for an index)',
    '    --evidence <folder|jsonl>                 trusted documents the fact checker takes its evidence from',
    '',
    'Service:',
    '  serve [--port 8080] [--host 127.0.0.1]      run the HTTP API and the tool server (embedded SQLite ledger)',
    '  tokens create [--account id] [--label x]    create an access token (shown once)',
    '  credits show [--account id]                 show an account balance',
    '  credits add <amount> [--account id]         top up an account, as a purchase would',
    '  index add <folder|jsonl> [--index file]     add documents to the persisted plagiarism source index',
    '  openapi                                     print the OpenAPI 3.1 document',
    '',
    'Options: --db <file> ledger file (default $CONTENT_ANALYSIS_DB or .data/content-analysis.sqlite);',
    '         --index <file> plagiarism source index (default $CONTENT_ANALYSIS_SOURCES or .data/sources.sqlite)',
  ].join('\n');
}

function writeJson(out: Writable, value: unknown): void {
  out.write(`${JSON.stringify(value, null, 2)}\n`);
}

async function featureCommand(feature: Feature<any, any>, argv: string[], io: CliIo): Promise<number> {
  const binding = feature.cli!;
  const fieldOptions = Object.fromEntries(
    [...binding.inputs, ...(binding.options ?? [])].map((i) => [i.field.replace(/_/g, '-'), { type: 'string' as const }]),
  );
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...fieldOptions,
      jsonl: { type: 'string' },
      progress: { type: 'boolean' },
      compact: { type: 'boolean' },
      sources: { type: 'string' },
      index: { type: 'string' },
      evidence: { type: 'string' },
    },
  });
  const engine = new Engine({ services: servicesFrom(values) });
  if (values.jsonl !== undefined) {
    const input = values.jsonl === '-' || values.jsonl === '' ? io.stdin : (await import('node:fs')).createReadStream(values.jsonl);
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
    if (input.kind === 'image') Object.assign(request, await readImageInput(source, input.field, { stdin: io.stdin }));
    else request[input.field] = await readTextInput(source, { stdin: io.stdin });
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

async function accountCommand(command: string, argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      account: { type: 'string' },
      label: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
    },
  });
  const ledger = openLedger(ledgerPath(values.db, io.env));
  const accountId = values.account ?? DEFAULT_ACCOUNT;
  const ensureAccount = async () => (await ledger.getAccount(accountId)) ?? ledger.createAccount({ id: accountId });
  const sub = positionals[0];
  try {
    if (command === 'tokens' && sub === 'create') {
      await ensureAccount();
      const { token, tokenId } = await ledger.createToken(accountId, values.label);
      writeJson(io.stdout, { account: accountId, token_id: tokenId, token });
      io.stderr.write('This token is shown once; only its hash is stored.\n');
      return 0;
    }
    if (command === 'credits' && sub === 'show') {
      const account = await ledger.getAccount(accountId);
      if (!account) throw new UsageError(`No account "${accountId}"; \`tokens create\` makes one`);
      writeJson(io.stdout, { account: account.id, balance: account.balance, history: await ledger.history(accountId, 10) });
      return 0;
    }
    if (command === 'credits' && sub === 'add') {
      const amount = Number(positionals[1]);
      if (!Number.isSafeInteger(amount) || amount <= 0) {
        throw new UsageError(`Expected positive integer for amount but received ${positionals[1] ?? 'nothing'}`);
      }
      await ensureAccount();
      writeJson(io.stdout, { account: accountId, balance: await ledger.topUp(accountId, amount, 'top-up (cli)') });
      return 0;
    }
  } finally {
    await ledger.close();
  }
  throw new UsageError(`Unknown command: ${command} ${sub ?? ''}`.trim());
}

function indexCommand(argv: string[], io: CliIo): number {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { index: { type: 'string' } } });
  if (positionals[0] !== 'add' || positionals.length !== 2) throw new UsageError('Usage: index add <folder|jsonl> [--index file]');
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

async function serve(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'no-tool-server': { type: 'boolean' },
      index: { type: 'string' },
      sources: { type: 'string' },
      evidence: { type: 'string' },
    },
  });
  const port = Number(values.port ?? io.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`Expected port number for --port but received ${values.port}`);
  const path = ledgerPath(values.db, io.env);
  const ledger = openLedger(path);
  if (!(await ledger.getAccount(DEFAULT_ACCOUNT))) {
    await ledger.createAccount({ id: DEFAULT_ACCOUNT });
    const { token } = await ledger.createToken(DEFAULT_ACCOUNT, 'first token');
    io.stdout.write(`First access token (shown once, account "${DEFAULT_ACCOUNT}", 2000 credits):\n${token}\n`);
  }
  const forensicsPool = new ForensicsPool({ threads: Math.max(1, availableParallelism()) });
  const engine = new Engine({
    ledger,
    services: {
      ...servicesFrom({ index: sourcesPath(values.index, io.env), sources: values.sources, evidence: values.evidence }),
      forensicsPool,
    },
  });
  const server = createApiServer({ engine, toolServer: values['no-tool-server'] !== true });
  const address = await listen(server, port, values.host ?? '127.0.0.1');
  io.stdout.write(`content-analysis listening on ${address.url} (ledger ${path}; tool server at ${address.url}/mcp/v1)\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      server.close(() => resolve());
      server.closeAllConnections();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await forensicsPool.close();
  await ledger.close();
  return 0;
}

/** Runs the CLI; resolves with the exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const engine = new Engine();
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      io.stdout.write(`${usage(engine)}\n`);
      return command === undefined ? 2 : 0;
    }
    if (command === 'serve') return await serve(rest, io);
    if (command === 'tokens' || command === 'credits') return await accountCommand(command, rest, io);
    if (command === 'index') return indexCommand(rest, io);
    if (command === 'image-metadata') return await imageMetadataCommand(rest, io.stdout, (m) => new UsageError(m));
    if (command === 'forensics') return await forensicsCommand(rest, io.stdout, (m) => new UsageError(m));
    if (command === 'openapi') {
      writeJson(io.stdout, openApiDocument(engine.features));
      return 0;
    }
    const feature = engine.features.list().find((f) => f.cli?.command === command);
    if (!feature) throw new UsageError(`Unknown command: ${command}`);
    return await featureCommand(feature, rest, io);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr.write(`content-analysis: ${(error as Error).message}\n\n${usage(engine)}\n`);
      return 2;
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
