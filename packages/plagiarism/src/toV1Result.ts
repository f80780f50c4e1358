import type { PlagiarismV1Result, PlagiarismV2Result } from './resultTypes.js';

/**
 * The v1 result from the same analysis: one entry per source that counts (not excluded, not cited), with its
 * passages as `excerpts` keyed "0", "1", ... and its publication date as an ISO 8601 string ('' when unknown).
 */
export function toV1Result(v2: PlagiarismV2Result): PlagiarismV1Result {
  const results = v2.sources
    .filter((s) => !s.is_excluded && !s.citation && s.plagiarismFound.length > 0)
    .map((s) => ({
      title: s.title,
      url: s.url,
      excerpts: Object.fromEntries(s.plagiarismFound.map((p, i) => [String(i), p.sequence])),
      date: s.publishedDate > 0 ? new Date(s.publishedDate).toISOString() : '',
    }));
  return { status: 200, results, results_count: results.length };
}
