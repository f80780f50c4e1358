import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import {
  calibrateAiText, DEFAULT_PROFILE_CONFIDENCE, InsufficientHumanTextError, InvalidCalibrationProfileError,
  parseCalibrationProfile, profileMeetsTarget,
} from '@content-analysis/engine';
import type { CalibrationProfile } from '@content-analysis/engine';
import { parseCommandLine } from './commandLine.js';
import { calibratePluggedModel } from './customModels.js';
import { CliError, UsageError } from './errors.js';
import { readTextInput } from './inputs.js';
import type { CliIo } from './main.js';

/** File name endings read as one human text each from a folder (documents have their text extracted). */
const TEXT_FILES = new Set(['.txt', '.md', '.pdf', '.docx', '.doc', '.html', '.htm']);

/**
 * Reads and checks a calibration profile file (`--calibration`); a file that is missing, not JSON or not a valid
 * profile is a `CliError` naming it.
 */
export async function readCalibrationProfile(path: string): Promise<CalibrationProfile> {
  let json: string;
  try {
    json = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read the calibration profile ${path}: ${(error as Error).message}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new CliError(`the calibration profile ${path} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  try {
    return parseCalibrationProfile(value, path);
  } catch (error) {
    if (error instanceof InvalidCalibrationProfileError) throw new CliError(error.message, { cause: error });
    throw error;
  }
}

/**
 * The human texts of `path`: a JSONL file (each line a JSON string or an object with `text`; lines whose `label` is
 * present and not `human` are left out, so a labelled set can be given as is), or a folder whose .txt, .md, .pdf,
 * .docx, .doc, .html and .htm files are one text each and whose .jsonl files are read as above (sub-folders too).
 */
export async function* humanTexts(path: string, counts: { notHuman: number }): AsyncGenerator<string> {
  if ((await stat(path)).isDirectory()) {
    for (const name of (await readdir(path)).sort()) {
      const child = join(path, name);
      const ext = extname(name).toLowerCase();
      if ((await stat(child)).isDirectory() || ext === '.jsonl') yield* humanTexts(child, counts);
      else if (TEXT_FILES.has(ext)) yield await readTextInput(child, { stdin: process.stdin });
    }
    return;
  }
  const lines = (await readFile(path, 'utf8')).split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.trim().length === 0) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      throw new CliError(`${basename(path)} line ${i + 1}: not JSON (each line is a JSON string or an object with text)`);
    }
    if (typeof record === 'string') {
      yield record;
      continue;
    }
    const r = record as { text?: unknown; label?: unknown } | null;
    if (typeof r?.text !== 'string') throw new CliError(`${basename(path)} line ${i + 1}: expected a JSON string or an object with a text string`);
    if (r.label !== undefined && r.label !== 'human' && r.label !== 0) {
      counts.notHuman++;
      continue;
    }
    yield r.text;
  }
}

function probability(flag: string, value: string | undefined, fallback: number): number {
  const n = Number(value ?? fallback);
  if (!(n > 0 && n < 1)) throw new UsageError(`Expected number in (0, 1) for ${flag} but received ${value}`);
  return n;
}

/** `content-analysis calibrate ai-text --human <folder|jsonl> --target-fpr 0.01 --out profile.json`. */
export async function calibrateCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, {
    human: { type: 'string' },
    'target-fpr': { type: 'string' },
    confidence: { type: 'string' },
    out: { type: 'string' },
    version: { type: 'string' },
    model: { type: 'string' },
  });
  if (positionals[0] !== 'ai-text') {
    throw new UsageError(positionals[0] === undefined ? 'calibrate: missing the detector (ai-text)' : `calibrate: unknown detector "${positionals[0]}" (ai-text)`);
  }
  if (positionals.length > 1) throw new UsageError(`calibrate: unexpected argument "${positionals[1]}"`);
  if (values.human === undefined) throw new UsageError('calibrate: missing --human <folder|jsonl>, the deployment\'s human texts');
  if (values['target-fpr'] === undefined) throw new UsageError('calibrate: missing --target-fpr, e.g. 0.01');
  if (values.model !== undefined && values.version !== undefined) throw new UsageError('calibrate: --model (a plugged model) and --version (the bundled detector\'s) exclude each other');
  const targetFpr = probability('--target-fpr', values['target-fpr'], 0.01);
  const confidence = probability('--confidence', values.confidence, DEFAULT_PROFILE_CONFIDENCE);
  await stat(values.human); // a missing path is reported before the model loads
  const counts = { notHuman: 0 };
  let outcome;
  try {
    outcome = values.model === undefined
      ? await calibrateAiText(humanTexts(values.human, counts), {
        targetFpr, confidence, source: basename(values.human), ...(values.version === undefined ? {} : { version: values.version }),
      })
      : await calibratePluggedModel(values.model, humanTexts(values.human, counts), { targetFpr, confidence, source: basename(values.human) });
  } catch (error) {
    if (error instanceof InsufficientHumanTextError) throw new CliError(error.message, { cause: error });
    throw error;
  }
  const { profile, read, used, skipped } = outcome;
  const json = `${JSON.stringify(profile, null, 2)}\n`;
  if (values.out === undefined) io.stdout.write(json);
  else await writeFile(values.out, json);
  const left = Object.entries({ ...skipped, ...(counts.notHuman > 0 ? { 'not labelled human': counts.notHuman } : {}) });
  io.stderr.write(
    `Calibrated ${profile.detector.model} ${profile.detector.version} on ${used} of ${read + counts.notHuman} texts` +
      `${left.length > 0 ? ` (left out: ${left.map(([why, n]) => `${n} ${why}`).join(', ')})` : ''}; ` +
      `target false-positive rate ${targetFpr} at ${confidence} confidence${values.out === undefined ? '' : `, written to ${values.out}`}\n`,
  );
  io.stderr.write('  length (chars)  human texts  flagged  FPR bound  \n');
  profile.buckets.forEach((b, k) => {
    const upper = profile.buckets[k + 1]?.min_chars;
    const range = upper === undefined ? `${b.min_chars}+` : `${b.min_chars}-${upper - 1}`;
    const note = b.meets_target ? '' : `  above the target${b.inherited_from === undefined ? '' : ` (threshold of the ${b.inherited_from}+ bucket)`}`;
    io.stderr.write(`  ${range.padEnd(14)}  ${String(b.n_human).padStart(11)}  ${String(b.exceedances).padStart(7)}  ${(100 * b.fpr_bound).toFixed(2).padStart(8)}%${note}\n`);
  });
  if (!profileMeetsTarget(profile)) {
    io.stderr.write('Warning: the buckets above the target had too few texts to promise it; add texts of those lengths.\n');
  }
  return 0;
}
