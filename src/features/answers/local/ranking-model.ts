/**
 * Weights of the sentence ranking, in the order of `RANKING_FEATURES` (scoring.ts).
 * Fitted by `npm run eval -- --fit` on the development part of the evaluation set (118 questions).
 */
export const RANKING_WEIGHTS: readonly number[] = [4.365, 0.602, 1.496, -0.595, 3.002, 1.279, -1.279, -0.422, 0.01, 3.9, 3.531, 0.338];
