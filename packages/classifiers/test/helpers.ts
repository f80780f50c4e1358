import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Prose written for this project's tests (no outside source).
export const PROSE = [
  'The library on Elm Street opened an hour late on Monday because the heating had failed over the weekend.',
  'Staff wrapped themselves in coats and handed out blankets to the few readers who came in anyway.',
  'By noon a technician had found the fault, a cracked valve in a boiler older than most of the staff.',
  'The council says a replacement is planned for next spring, though it said the same thing two years ago.',
  'Meanwhile the children\'s section has moved upstairs, where the radiators still work and the windows face south.',
  'Most visitors seemed to take it in their stride; one man said he had read a whole novel in his gloves.',
  'Nobody could say exactly when the new boiler would arrive, and the librarians had stopped guessing.',
].join(' ');

/** Text of about `chars` characters, built from PROSE with numbered paragraphs so it does not repeat exactly. */
export function longText(chars: number): string {
  let out = '';
  for (let i = 1; out.length < chars; i++) out += `Part ${i}. ${PROSE}\n\n`;
  return out.slice(0, chars);
}

/** Path of a shared dataset folder, or undefined (with the reason logged) when the datasets are absent. */
export function imageDatasetDir(relative: string): string | undefined {
  const root = process.env['CONTENT_ANALYSIS_DATASETS'] ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/datasets');
  const dir = join(root, relative);
  if (existsSync(dir)) return dir;
  console.warn(`skipping: dataset ${relative} not found under ${root} (set CONTENT_ANALYSIS_DATASETS)`);
  return undefined;
}
