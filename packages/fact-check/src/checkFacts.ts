import { countWords } from '@content-analysis/credits';
import { detectLanguage } from './detectLanguage.js';
import { InvalidArgumentError } from './errors.js';
import { EvidenceStore, type EvidencePassage } from './evidenceStore.js';
import { extractClaims } from './extractClaims.js';
import { EvidenceGatherer } from './gatherEvidence.js';
import { judgeClaim, type JudgeClaimOptions } from './judgeClaim.js';
import { isFactCheckLanguage, type FactCheckLanguage } from './languages.js';
import type { WebSearchProvider } from './searchProvider.js';
import { segmentSentences } from './segmentSentences.js';
import type { ClaimVerdict } from './verdicts.js';
import { loadWordVectors } from './wordVectors.js';

export interface CheckFactsOptions extends JudgeClaimOptions {
  /** Trusted documents to check the claims against. */
  store: EvidenceStore;
  /**
   * A 2-letter code among FACT_CHECK_LANGUAGES, or `auto` to detect it.
   * @default 'auto'
   */
  language?: string;
  /** Web search service consulted per claim in addition to the store. */
  searchProvider?: WebSearchProvider;
  /**
   * How the text reached the service (reported back as `input`).
   * @default 'text'
   */
  input?: 'text' | 'file' | 'website';
  /**
   * At most this many claims (the API allows 12).
   * @default 12
   */
  maxClaims?: number;
  /**
   * Minimum check-worthiness probability for a sentence to become a claim.
   * @default 0.4
   */
  minCheckWorthiness?: number;
  /**
   * Longest accepted text, in UTF-16 code units (the API bounds are 300..10,000; the engine checks the lower one).
   * @default 10000
   */
  maxChars?: number;
  /** Cancels search provider calls. */
  signal?: AbortSignal;
}

/** One checked claim, as the API returns it. */
export interface FactCheckClaim {
  /** Id of the sentence the claim comes from (one claim per sentence), as in `sentences`. */
  id: number;
  /** Text of the sentence the claim comes from. */
  sentence: string;
  claim: string;
  verdict: ClaimVerdict;
  score: number;
  explanation: string;
  links: Array<{ url: string; title: string }>;
}

/** The fact checker result without the credit fields (the engine adds `creditsUsed` and `creditsRemaining`). */
export interface FactCheckResult {
  status: 200;
  claims: FactCheckClaim[];
  /** Mean claim score over claims that have evidence (SUPPORTED, PARTIALLY_SUPPORTED, REFUTED); 50 when none has. */
  score: number;
  claimsCount: number;
  text: string;
  sentences: Array<{ id: number; text: string }>;
  input: 'text' | 'file' | 'website';
  language: string;
  wordCount: number;
}

/**
 * The check-worthy claims of a text (plain data, so it can cross to a worker thread): its sentences and the claims
 * extracted from them, best first.
 */
export interface CheckableClaims {
  text: string;
  language: FactCheckLanguage;
  input: 'text' | 'file' | 'website';
  sentences: Array<{ id: number; text: string }>;
  claims: Array<{ sentenceId: number; sentence: string; claim: string }>;
}

/** {@link CheckableClaims} with the evidence passages found for each claim. */
export interface GatheredClaims extends CheckableClaims {
  claims: Array<{ sentenceId: number; sentence: string; claim: string; passages: EvidencePassage[] }>;
}

/** The options of {@link findCheckableClaims}: those of checkFacts that are plain data. */
export type FindClaimsOptions = Omit<CheckFactsOptions, 'store' | 'searchProvider' | 'signal'>;

/**
 * Checks the facts of a text: splits it into sentences, extracts at most 12 check-worthy claims (best first), finds
 * evidence passages for each in the store (and the search provider when given) and judges each claim with the
 * entailment model. Each claim's `id` is the id of its sentence in `sentences`. Its three steps are exported so that
 * the CPU-bound ones can run in a worker thread: `judgeClaims(await gatherClaimEvidence(await
 * findCheckableClaims(text, options), options), options)` is the same.
 */
export async function checkFacts(text: string, options: CheckFactsOptions): Promise<FactCheckResult> {
  expectStore(options);
  const found = await findCheckableClaims(text, options);
  return judgeClaims(await gatherClaimEvidence(found, options), options);
}

function expectStore(options: CheckFactsOptions): void {
  if (!(options?.store instanceof EvidenceStore)) throw new InvalidArgumentError('store', 'an EvidenceStore', options?.store);
}

/** Step 1 of {@link checkFacts}: validates, splits the text into sentences and extracts its check-worthy claims. */
export async function findCheckableClaims(text: string, options: FindClaimsOptions): Promise<CheckableClaims> {
  if (typeof text !== 'string' || text.trim().length === 0) throw new InvalidArgumentError('text', 'a non-empty string', text);
  const maxChars = options?.maxChars ?? 10_000;
  if (text.length > maxChars) throw new InvalidArgumentError('text', `a string of at most ${maxChars} characters`, text);
  const requested = options.language ?? 'auto';
  if (requested !== 'auto' && !isFactCheckLanguage(requested)) {
    throw new InvalidArgumentError('language', '"auto" or a supported 2-letter language code', requested);
  }
  const maxClaims = options.maxClaims ?? 12;
  if (!Number.isInteger(maxClaims) || maxClaims < 0 || maxClaims > 12) throw new InvalidArgumentError('maxClaims', 'an integer from 0 to 12', maxClaims);
  const language: FactCheckLanguage = requested === 'auto' ? detectLanguage(text) : requested;

  const sentences = segmentSentences(text, language);
  const extracted = await extractClaims(sentences, loadWordVectors(), { maxClaims, minCheckWorthiness: options.minCheckWorthiness ?? 0.4, language });
  return {
    text,
    language,
    input: options.input ?? 'text',
    sentences: sentences.map(({ id, text: sentence }) => ({ id, text: sentence })),
    claims: extracted.map(({ sentenceId, sentence, claim }) => ({ sentenceId, sentence, claim })),
  };
}

/**
 * Step 2 of {@link checkFacts}: the evidence passages of each claim, from the store and the search provider (read
 * here, so this step runs where they live).
 */
export async function gatherClaimEvidence(
  found: CheckableClaims,
  options: Pick<CheckFactsOptions, 'store' | 'searchProvider' | 'signal'>,
): Promise<GatheredClaims> {
  expectStore(options as CheckFactsOptions);
  const gatherer = new EvidenceGatherer({
    store: options.store,
    language: found.language,
    ...(options.searchProvider ? { searchProvider: options.searchProvider } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const claims: GatheredClaims['claims'] = [];
  for (const claim of found.claims) {
    const { passages } = await gatherer.gather(claim.claim);
    claims.push({ ...claim, passages });
  }
  return { ...found, claims };
}

/** Step 3 of {@link checkFacts}: judges each gathered claim with the entailment model; reads no store. */
export async function judgeClaims(gathered: GatheredClaims, options: JudgeClaimOptions = {}): Promise<FactCheckResult> {
  const vectors = loadWordVectors();
  const claims: FactCheckClaim[] = [];
  for (const claim of gathered.claims) {
    const judgement = await judgeClaim(claim.claim, claim.passages, vectors, { ...options, language: gathered.language });
    claims.push({
      id: claim.sentenceId,
      sentence: claim.sentence,
      claim: claim.claim,
      verdict: judgement.verdict,
      score: judgement.score,
      explanation: judgement.explanation,
      links: judgement.links,
    });
  }
  const judged = claims.filter((c) => c.verdict !== 'NOT_ENOUGH_EVIDENCE');
  const score = judged.length === 0 ? 50 : Math.round(judged.reduce((sum, c) => sum + c.score, 0) / judged.length);
  return {
    status: 200,
    claims,
    score,
    claimsCount: claims.length,
    text: gathered.text,
    sentences: gathered.sentences,
    input: gathered.input,
    language: gathered.language,
    wordCount: countWords(gathered.text),
  };
}
