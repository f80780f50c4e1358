/** Claim verdicts (response-fields.md, POST /v2/fact-checker). */
export const CLAIM_VERDICTS = ['SUPPORTED', 'PARTIALLY_SUPPORTED', 'NOT_ENOUGH_EVIDENCE', 'REFUTED'] as const;

export type ClaimVerdict = (typeof CLAIM_VERDICTS)[number];
