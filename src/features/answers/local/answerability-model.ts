/**
 * Weights of the answerability model, in the order of `EVIDENCE_FEATURES`, then the intercept.
 * Fitted by `npm run eval -- --fit` on the development part of the evaluation set (157 questions).
 */
export const ANSWERABILITY_WEIGHTS: readonly number[] = [1.321, 1.196, 1.604, 0.87, 0.462, 0.16, 0.041, -1.346, -1.686];
