/**
 * Weights of the sentence ranking, in the order of `RANKING_FEATURES` (scoring.ts).
 * Fitted by `npm run eval -- --fit` on the development part of the evaluation set (118 questions).
 */
export const RANKING_WEIGHTS: readonly number[] = [4.317, 0.609, 1.5, -0.585, 2.988, 1.274, -1.281, -0.544, 0.171, 3.886, 3.417, 0.339];
