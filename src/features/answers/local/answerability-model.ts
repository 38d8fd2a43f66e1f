/**
 * Weights of the answerability model, in the order of `EVIDENCE_FEATURES`, then the intercept.
 * Fitted by `npm run eval -- --fit` on the development part of the evaluation set (157 questions).
 */
export const ANSWERABILITY_WEIGHTS: readonly number[] = [1.43, 1.905, 1.825, 1.047, 0.804, -1.047, 0.042, -0.669, 2.485, -3.365, -2.199];
