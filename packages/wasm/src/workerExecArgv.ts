import { Worker } from 'node:worker_threads';

/**
 * An option Node never knows: added to every probe so that the probe Worker's constructor always refuses, and so
 * never starts a thread (no preload script of the parent runs in it).
 */
const PROBE_OPTION = '--content-analysis-worker-probe';
const checked = new Map<string, string[]>();

/**
 * The options among `options` that this Node refuses in a worker's `execArgv`, as its Worker constructor lists them;
 * undefined when its error cannot be read.
 */
function refusedByWorkers(options: readonly string[]): string[] | undefined {
  try {
    // Refused at once (PROBE_OPTION is unknown), before any thread starts; terminate in case a Node accepts it.
    void new Worker('', { eval: true, execArgv: [...options, PROBE_OPTION] }).terminate();
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    // Node stops listing at a word it cannot place (the value of a refused option given as a separate word): what
    // it lists is removed and the rest asked again.
    const listed = code === 'ERR_WORKER_INVALID_EXEC_ARGV' ? /flags: (.*)$/s.exec(message)?.[1]?.split(', ') : undefined;
    return listed?.filter((option) => option !== PROBE_OPTION);
  }
  return undefined;
}

/**
 * Options that are not for a worker and take a value (`-C x` or `-C=x`): resolution conditions, the main script's code
 * and its type.
 */
const NOT_FOR_WORKERS = new Set(['--conditions', '-C', '--eval', '-e', '-pe', '-ep', '--input-type']);
/** `--print`'s code, when it comes as the next word (`-p -e code` gives it to `-e`). */
const PRINT = new Set(['--print', '-p']);

/**
 * `argv` without the options that are this process's own choices about its main script and module resolution: the
 * resolution conditions (`--conditions x`, `--conditions=x`, `-C x`, `-C=x`), the code of `--eval`/`--print` (`-e`,
 * `-p`, `-pe`) and `--input-type` (a worker given it refuses to run its file: "--input-type can only be used with
 * string input", also when it inherits it).
 */
function withoutMainScriptOptions(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const option = argv[i]!;
    const name = option.split('=', 1)[0]!;
    if (NOT_FOR_WORKERS.has(name)) {
      if (!option.includes('=')) i++;
    } else if (PRINT.has(name)) {
      if (!option.includes('=') && i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) i++;
    } else {
      out.push(option);
    }
  }
  return out;
}

/**
 * The Node options a worker thread of this project's pools starts with (Piscina's and `new Worker`'s `execArgv`):
 * this process's, less two kinds.
 * - The choices about this process's main script: module resolution conditions (the workers run built code, `dist/`,
 *   so the packages they import must resolve to their built code too, also when this process runs on TypeScript
 *   sources under a condition that selects them, as the test runner does), `--eval`/`--print` code and `--input-type`.
 * - Options a worker refuses (`ERR_WORKER_INVALID_EXEC_ARGV`): V8 and process-wide ones such as `--expose-gc`,
 *   `--max-old-space-size=N`, `--stack-size=N`, `--title=x`, which already hold for the whole process. Node judges
 *   them itself: the list is asked of its Worker constructor once per distinct `argv` (with an option it never knows,
 *   so that the probe is refused before any thread starts), not kept here. A value given as a separate word after a
 *   refused option goes with it.
 * When Node's answer cannot be read, only the options every Node version accepts in workers are kept: none.
 */
export function workerExecArgv(argv: readonly string[] = process.execArgv): string[] {
  const key = JSON.stringify(argv);
  const known = checked.get(key);
  if (known) return [...known];
  let options = withoutMainScriptOptions(argv);
  for (let round = 0; options.length > 0; round++) {
    const refused = round < 8 ? refusedByWorkers(options) : undefined;
    if (refused === undefined) {
      options = [];
      break;
    }
    if (refused.length === 0) break;
    const kept: string[] = [];
    for (let i = 0; i < options.length; i++) {
      if (!refused.includes(options[i]!)) kept.push(options[i]!);
      else if (i + 1 < options.length && !options[i + 1]!.startsWith('-')) i++;
    }
    if (kept.length === options.length) {
      options = [];
      break;
    }
    options = kept;
  }
  checked.set(key, options);
  return [...options];
}
