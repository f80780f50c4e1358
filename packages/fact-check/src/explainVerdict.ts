import type { Alignment } from './alignPair.js';
import type { PassageConflicts } from './calibratedVerdict.js';
import type { ClaimVerdict } from './verdicts.js';

/** Evidence a verdict rests on: the passage's source and how it aligned with the claim. */
export interface ExplainedEvidence {
  title: string;
  alignment: Alignment;
}

/** What a calibrated verdict adds to its explanation. */
export interface CalibratedEvidence {
  /** Calibrated P(SUPPORTED) and P(REFUTED). */
  supported: number;
  refuted: number;
  /** The decisive passage's conflicts with the claim. */
  conflicts: PassageConflicts;
  /** Claim content words no relevant passage contains. */
  unfound: readonly string[];
}

/**
 * A short explanation built from what matched and what contradicted between the claim and the decisive passage; with
 * a calibrated verdict, also what no passage contains and the calibrated chances behind a NOT_ENOUGH_EVIDENCE.
 */
export function explainVerdict(
  verdict: ClaimVerdict,
  evidence: ExplainedEvidence | undefined,
  claimWords: readonly string[],
  calibrated?: CalibratedEvidence,
): string {
  if (!evidence) {
    const about = claimWords.slice(0, 4).join(', ');
    return `No passage in the available evidence addresses this claim${about ? ` (searched for: ${about})` : ''}.`;
  }
  const a = evidence.alignment;
  const matched: string[] = [];
  if (a.matchedEntities.length > 0) matched.push(a.matchedEntities.join(', '));
  const numbers = [...a.matchedNumbers, ...a.claimYears.filter((y) => !a.mismatchedYears.includes(y) && a.evidenceNumbers.includes(y))];
  if (numbers.length > 0) matched.push(`the figures ${numbers.map((n) => (a.claimYears.includes(n) ? String(n) : format(n))).join(', ')}`);
  const conflicts: string[] = [];
  if (a.mismatchedNumbers.length > 0) {
    const unmatched = a.evidenceNumbers.filter((n) => !a.matchedNumbers.includes(n) && !a.claimYears.includes(n));
    // Years in the source are rarely the figure the claim got wrong; name them only when nothing else is left.
    const nonYears = unmatched.filter((n) => !(Number.isInteger(n) && n >= 1000 && n <= 2100));
    const others = nonYears.length > 0 ? nonYears : unmatched;
    conflicts.push(`the claim says ${a.mismatchedNumbers.map(format).join(', ')} where the source gives ${others.map(format).join(', ') || 'other figures'}`);
  }
  if (a.mismatchedYears.length > 0) conflicts.push(`the year ${a.mismatchedYears.join(', ')} does not appear in the source`);
  if (a.claimNegated !== a.evidenceNegated) conflicts.push(a.claimNegated ? 'the claim negates what the source states' : 'the source negates what the claim states');
  for (const [claimWord, evidenceWord] of a.oppositeComparisons) conflicts.push(`the claim says "${claimWord}" where the source says "${evidenceWord}"`);
  for (const s of a.substitutions.slice(0, 2)) if (s.similarity < 0.9 && s.claim !== s.evidence) conflicts.push(`"${s.claim}" in the claim against "${s.evidence}" in the source`);
  if (a.missingEntities.length > 0) conflicts.push(`the source does not mention ${a.missingEntities.join(', ')}`);
  const unstated = calibrated?.conflicts.unstated ?? [];
  if (unstated.length > 0) conflicts.push(`it does not state "${unstated.join('", "')}"`);

  const source = `"${evidence.title}"`;
  const lead: Record<ClaimVerdict, string> = {
    SUPPORTED: `Supported by ${source}`,
    PARTIALLY_SUPPORTED: `Partly supported by ${source}`,
    REFUTED: `Contradicted by ${source}`,
    NOT_ENOUGH_EVIDENCE: `${source} is related but does not settle the claim`,
  };
  let body = matched.length > 0
    ? `it agrees on ${matched.join(' and ')}`
    : `it shares ${a.matchedWords.length} of the claim's ${a.claimWords.length} content words`;
  if (conflicts.length > 0 && verdict !== 'SUPPORTED') body += `, but ${conflicts.slice(0, 3).join('; ')}`;
  if (!calibrated) return `${lead[verdict]}: ${body}.`;
  const notFound = verdict === 'SUPPORTED' || calibrated.unfound.length === 0 ? '' : ` No passage mentions ${calibrated.unfound.slice(0, 5).join(', ')}.`;
  const chances = `calibrated chance supported ${percent(calibrated.supported)}, refuted ${percent(calibrated.refuted)}`;
  if (verdict !== 'NOT_ENOUGH_EVIDENCE') return `${lead[verdict]}: ${body} (${chances}).${notFound}`;
  return `${lead[verdict]}: ${body}; neither side is likely enough (${chances}).${notFound}`;
}

function format(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('en-US') : String(value);
}

function percent(p: number): string {
  return `${Math.round(100 * p)}%`;
}
