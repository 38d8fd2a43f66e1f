/**
 * Weights of the answerability model, in the order of `EVIDENCE_FEATURES`, then the intercept.
 * Fitted by `npm run eval -- --fit` on the development part of the evaluation set (157 questions).
 */
export const ANSWERABILITY_WEIGHTS: readonly number[] = [2.024, 0.547, 1.329, -0.453, 0.624, -0.89, 0.534, -1.378, -0.577];
