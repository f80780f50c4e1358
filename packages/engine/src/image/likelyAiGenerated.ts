/** Human scores below this read as AI-generated: the AI-image classifier's shipped threshold. */
export const AI_IMAGE_SCORE_THRESHOLD = 50;

/** Whether a human score (0..100) of image detection reads as AI-generated. */
export function likelyAiGenerated(score: number): boolean {
  return score < AI_IMAGE_SCORE_THRESHOLD;
}
