import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Stands for the leading `-` of a negative number while node's parser reads the line, which takes `-1990` for `-1`. */
const NEGATIVE = '\u0000negative:';
const NEGATIVE_NUMBER = /^-(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;

function restore(value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith(NEGATIVE) ? `-${value.slice(NEGATIVE.length)}` : value;
  if (Array.isArray(value)) return value.map(restore);
  return value;
}

/**
 * `parseArgs` with two additions: a negative number (`credits add -1990`, `--port -1`) is read as a value, for the
 * command to validate, rather than as an unknown short option; and a string option named in `optionalValues`
 * may be given without its value, which is then `-` (`--jsonl` alone reads standard input).
 */
export function parseCommandLine<O extends Options>(
  args: readonly string[],
  options: O,
  optionalValues: readonly (keyof O & string)[] = [],
): { values: ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>['values']; positionals: string[] } {
  const rewritten: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      rewritten.push(...args.slice(i));
      break;
    }
    if (NEGATIVE_NUMBER.test(arg)) {
      rewritten.push(`${NEGATIVE}${arg.slice(1)}`);
      continue;
    }
    rewritten.push(arg);
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name !== undefined && optionalValues.includes(name)) {
      const next = args[i + 1];
      const hasValue = next !== undefined && (next === '-' || !next.startsWith('-') || NEGATIVE_NUMBER.test(next));
      if (!hasValue) rewritten.push('-');
    }
  }
  let parsed: ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: rewritten, options, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's own message quotes the option one way and its advice another ('-- "--x"'); ours says it once.
    const code = (error as { code?: string }).code;
    const option = /'(-[^']*)'/.exec((error as Error).message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined) {
      const unknown = new Error(`Unknown option '${option}' (a value starting with - goes after --, as in -- '${option}')`);
      Object.assign(unknown, { code });
      throw unknown;
    }
    throw error;
  }
  const { values, positionals } = parsed;
  const restoredValues = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, restore(value)]));
  return { values: restoredValues as typeof values, positionals: positionals.map((p) => restore(p) as string) };
}

/** Whether the command line asks for help (`--help` or `-h` before any `--`). */
export function asksForHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}
