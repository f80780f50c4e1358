import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BIN } from './build.js';

/**
 * `content-analysis serve` and `worker` as child processes of the built CLI, for the scale-out tests. Every child
 * started here is remembered, so that `killAll` can end what a failed test left running.
 */
const children = new Set<ChildProcessWithoutNullStreams>();

/** This process's environment without the variables that choose the stores (so a flag is the only source), plus `extra`. */
export function storeFreeEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['CONTENT_ANALYSIS_DATABASE_URL', 'CONTENT_ANALYSIS_DATABASE_SCHEMA', 'CONTENT_ANALYSIS_REDIS_URL', 'CONTENT_ANALYSIS_REDIS_PREFIX', 'CONTENT_ANALYSIS_DB']) {
    delete env[name];
  }
  return { ...env, ...extra };
}

/** Spawns the built CLI with `args`. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env });
  children.add(child);
  return child;
}

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

export interface ServeNode {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** The first token, when this node printed one. */
  token: string | undefined;
  /** What it printed up to its address. */
  started: string;
  /** Lines of its log (stderr) so far. */
  log: string[];
}

/**
 * Starts `content-analysis serve --port 0 …args` and waits for its address (and its first token, if it prints one).
 * Its models load on first use (`--no-warm`) unless `warm` is set: a warm start costs seconds per process.
 */
export async function startServe(args: string[], env: NodeJS.ProcessEnv, options: { warm?: boolean } = {}): Promise<ServeNode> {
  const child = spawnCli(['serve', '--port', '0', ...(options.warm ? [] : ['--no-warm']), ...args], env);
  const log: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => log.push(line));
  let token: string | undefined;
  let started = '';
  for await (const line of createInterface({ input: child.stdout })) {
    started += `${line}\n`;
    if (/^ca_/.test(line)) token = line.trim();
    const match = /listening on (http:\/\/\S+)/.exec(line);
    if (match) return { child, url: match[1]!, token, started, log };
  }
  throw new Error(`serve exited before listening: ${log.join('\n')}`);
}

export interface WorkerProcess {
  child: ChildProcessWithoutNullStreams;
  /** Lines of its log (stderr) so far. */
  log: string[];
  /** Lines of its stdout so far. */
  out: string[];
  exited: Promise<number | null>;
}

/** Starts `content-analysis worker …args` and waits until it takes jobs (with `--no-warm` unless `warm` is set). */
export async function startWorker(args: string[], env: NodeJS.ProcessEnv, options: { warm?: boolean } = {}): Promise<WorkerProcess> {
  const child = spawnCli(['worker', ...(options.warm ? [] : ['--no-warm']), ...args], env);
  const worker: WorkerProcess = { child, log: [], out: [], exited: exited(child) };
  createInterface({ input: child.stderr }).on('line', (line) => worker.log.push(line));
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    worker.out.push(line);
    if (line.includes('taking jobs')) break;
  }
  lines.on('line', (line) => worker.out.push(line));
  if (!worker.out.some((line) => line.includes('taking jobs'))) throw new Error(`worker exited before taking jobs: ${worker.log.join('\n')}`);
  return worker;
}

/** SIGTERM, the graceful stop; resolves with the exit code. */
export function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  const code = exited(child);
  child.kill('SIGTERM');
  return code;
}

/** SIGKILL; resolves once the process is gone. */
export async function kill(child: ChildProcessWithoutNullStreams): Promise<void> {
  const code = exited(child);
  child.kill('SIGKILL');
  await code;
}

/** Kills every child started here that still runs, and waits for them. */
export async function killAll(): Promise<void> {
  await Promise.all([...children].map(kill));
  children.clear();
}

/** A structured log line of a worker or an API node (see `jsonLog`). */
export interface LogEvent {
  event: string;
  [field: string]: unknown;
}

/** The structured lines of `lines` whose event is one of `events`. */
export function logEvents(lines: readonly string[], ...events: string[]): LogEvent[] {
  const parsed: LogEvent[] = [];
  for (const line of lines) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as LogEvent;
    if (events.length === 0 || events.includes(entry.event)) parsed.push(entry);
  }
  return parsed;
}
