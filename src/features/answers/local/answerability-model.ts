/**
 * Weights of the answerability model, in the order of `EVIDENCE_FEATURES`, then the intercept.
 * Fitted by `npm run eval -- --fit` on the development part of the evaluation set (157 questions).
 */
export const ANSWERABILITY_WEIGHTS: readonly number[] = [1.33, 1.981, 1.721, 0.867, 0.881, -0.869, 0.227, -0.615, 2.66, -3.214, -2.489];
