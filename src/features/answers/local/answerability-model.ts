/**
 * Weights of the answerability model, in the order of `EVIDENCE_FEATURES`, then the intercept.
 * Fitted by `npm run eval -- --fit` on the development part of the evaluation set (157 questions).
 */
export const ANSWERABILITY_WEIGHTS: readonly number[] = [2.04, 0.968, 1.427, -0.215, 0.618, -1.164, 0.188, -1.557, -0.403];
