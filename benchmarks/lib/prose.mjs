// Prose written for this project's benchmarks; numbered parts so that a long text does not repeat exactly.
export const PROSE =
  'The library on Elm Street opened an hour late on Monday because the heating had failed over the weekend. ' +
  'Staff wrapped themselves in coats and handed out blankets to the few readers who came in anyway. ' +
  'By noon a technician had found the fault, a cracked valve in a boiler older than most of the staff. ' +
  'The council says a replacement is planned for next spring, though it said the same thing two years ago. ';

/** About `chars` characters of PROSE in numbered parts. */
export function proseOf(chars) {
  let out = '';
  for (let i = 1; out.length < chars; i++) out += `Part ${i}. ${PROSE}\n\n`;
  return out.slice(0, chars);
}
