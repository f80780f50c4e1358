import { NEGATIONS } from './cueWords.js';
import { stem } from './stem.js';
import { isContentWord } from './stopwords.js';
import type { Token } from './tokenize.js';

/** Words that open a new clause: a negation before them does not reach past them. */
const CLAUSE_OPENERS = new Set(['but', 'however', 'although', 'though', 'while', 'whereas', 'which', 'who', 'because', 'since', 'unless', 'yet']);

/** Per token, whether a negation cue stands in the same clause (clauses end at , ; : . ! ? ( ) and at clause openers). */
export function negatedTokens(text: string, tokens: readonly Token[], negations: ReadonlySet<string> = NEGATIONS): boolean[] {
  const clause: number[] = [];
  let id = 0;
  tokens.forEach((token, i) => {
    const gap = i === 0 ? '' : text.slice(tokens[i - 1]!.end, token.start);
    if (/[,;:.!?()\u2013\u2014]/.test(gap) || CLAUSE_OPENERS.has(token.lower)) id++;
    clause.push(id);
  });
  const negatedClauses = new Set(tokens.flatMap((t, i) => (negations.has(t.lower) ? [clause[i]!] : [])));
  return clause.map((c) => negatedClauses.has(c));
}

/**
 * Claim content words found in the evidence (by stem) that are negated on one side only: "warming is not caused by
 * the sun" vs "warming is caused by CO2, not the sun" differ in scope, a whole-sentence negation flag does not see it.
 */
export function scopedNegationMismatches(
  claim: string,
  claimTokens: readonly Token[],
  evidence: string,
  evidenceTokens: readonly Token[],
  negations: ReadonlySet<string> = NEGATIONS,
): string[] {
  const claimNegated = negatedTokens(claim, claimTokens, negations);
  const evidenceNegated = negatedTokens(evidence, evidenceTokens, negations);
  const evidenceByStem = new Map<string, boolean>();
  evidenceTokens.forEach((t, i) => {
    if (!isContentWord(t.lower) || negations.has(t.lower)) return;
    const key = stem(t.lower);
    evidenceByStem.set(key, (evidenceByStem.get(key) ?? false) || evidenceNegated[i]!);
  });
  const out: string[] = [];
  claimTokens.forEach((t, i) => {
    if (!isContentWord(t.lower) || negations.has(t.lower)) return;
    const other = evidenceByStem.get(stem(t.lower));
    if (other !== undefined && other !== claimNegated[i]) out.push(t.lower);
  });
  return out;
}
