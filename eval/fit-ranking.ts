/**
 * Fits the sentence ranking (`src/features/answers/local/ranking-model.ts`) on the development part:
 * for each answerable question, the candidate sentences of the passages the engine retrieves, each
 * labelled by whether quoting it (with the sentence after it) would answer the question. The fit
 * maximises the probability a softmax over a question's candidates gives to its answering ones
 * (listwise), with a little L2 regularisation. Questions whose candidates all answer, or none do,
 * teach nothing and are left out. The held-out part never enters the fit.
 */
import fs from 'node:fs';
import { RANKING_FEATURES } from '../src/features/answers/local/scoring.ts';

/** One question's candidates: their feature vectors and whether each answers. */
export interface RankingSample {
  features: number[][];
  answers: boolean[];
}

const ITERATIONS = 3000;
const LEARNING_RATE = 0.5;
const L2 = 0.001;
const MODEL_FILE = new URL('../src/features/answers/local/ranking-model.ts', import.meta.url);

/** Whether a sample can teach anything: some candidates answer and some do not. */
export const informative = (sample: RankingSample) => sample.answers.some(Boolean) && !sample.answers.every(Boolean);

/** Weights maximising the softmax probability of the answering candidates, by gradient descent from `start`. */
export function fitRanking(samples: RankingSample[], start: readonly number[]): number[] {
  const n = RANKING_FEATURES.length;
  const w = Array.from({ length: n }, (_, i) => start[i] ?? 0);
  const used = samples.filter(informative);
  for (let it = 0; it < ITERATIONS; it++) {
    const grad = new Array(n).fill(0);
    for (const { features, answers } of used) {
      const scores = features.map((x) => x.reduce((s, v, i) => s + v * w[i]!, 0));
      const top = Math.max(...scores);
      const e = scores.map((s) => Math.exp(s - top));
      const all = e.reduce((a, b) => a + b, 0);
      const good = e.reduce((a, v, i) => a + (answers[i] ? v : 0), 0);
      features.forEach((x, j) => {
        const coefficient = e[j]! / all - (answers[j] ? e[j]! / good : 0);
        for (let i = 0; i < n; i++) grad[i] += coefficient * x[i]!;
      });
    }
    for (let i = 0; i < n; i++) w[i] = w[i]! - LEARNING_RATE * (grad[i] / used.length + L2 * w[i]!);
  }
  return w.map((v) => Math.round(v * 1000) / 1000);
}

/** How many samples the weights rank an answering candidate first for. */
export function topHits(samples: RankingSample[], weights: readonly number[]): number {
  return samples.filter(({ features, answers }) => {
    let best = 0;
    let bestScore = -Infinity;
    features.forEach((x, j) => {
      const s = x.reduce((acc, v, i) => acc + v * weights[i]!, 0);
      if (s > bestScore) [best, bestScore] = [j, s];
    });
    return answers[best];
  }).length;
}

/** Writes the fitted weights into the model file. */
export function writeRankingModel(weights: number[], questions: number): void {
  const text = `/**
 * Weights of the sentence ranking, in the order of \`RANKING_FEATURES\` (scoring.ts).
 * Fitted by \`npm run eval -- --fit\` on the development part of the evaluation set (${questions} questions).
 */
export const RANKING_WEIGHTS: readonly number[] = [${weights.join(', ')}];
`;
  fs.writeFileSync(MODEL_FILE, text);
}
