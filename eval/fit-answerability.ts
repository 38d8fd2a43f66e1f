/**
 * Fits the answerability model (`src/features/answers/local/answerability-model.ts`; `npm run eval --
 * --fit=answerability` fits it alone, on the current sentence ranking) by logistic
 * regression on the development part: each answerable or unanswerable question gives the evidence
 * of the answer the engine would give if it always answered, labelled 1 when the knowledge answers
 * the question and 0 when it does not. The two classes weigh the same in the loss, whatever their
 * counts, so that 0.5 means the two errors (refusing an answerable question, answering an
 * unanswerable one) are treated alike. The held-out part never enters the fit.
 */
import fs from 'node:fs';
import { ANSWER_PROBABILITY, answerProbability, EVIDENCE_FEATURES, type Evidence } from '../src/features/answers/local/answerability.ts';

export interface Sample {
  evidence: Evidence;
  label: 0 | 1;
}

const ITERATIONS = 20_000;
const LEARNING_RATE = 0.5;
const L2 = 0.002;
const MODEL_FILE = new URL('../src/features/answers/local/answerability-model.ts', import.meta.url);

/** Weights (features, then intercept) minimising the regularised log loss, by gradient descent. */
export function fitLogistic(samples: Sample[]): number[] {
  const n = EVIDENCE_FEATURES.length;
  const w = new Array(n + 1).fill(0);
  const rows = samples.map((s) => [...EVIDENCE_FEATURES.map((f) => s.evidence[f]), 1]);
  const positives = samples.filter((s) => s.label === 1).length;
  const classWeight = [samples.length / (2 * Math.max(1, samples.length - positives)), samples.length / (2 * Math.max(1, positives))];
  for (let it = 0; it < ITERATIONS; it++) {
    const grad = new Array(n + 1).fill(0);
    rows.forEach((x, r) => {
      const z = x.reduce((acc, v, i) => acc + v * w[i], 0);
      const p = 1 / (1 + Math.exp(-z));
      const err = (p - samples[r]!.label) * classWeight[samples[r]!.label]!;
      for (let i = 0; i <= n; i++) grad[i] += err * x[i]!;
    });
    for (let i = 0; i <= n; i++) w[i] -= LEARNING_RATE * (grad[i] / rows.length + (i < n ? L2 * w[i] : 0));
  }
  return w.map((v) => Math.round(v * 1000) / 1000);
}

/**
 * How the decision does on questions it was not fitted on: k-fold cross-validation over the
 * development samples (every k-th sample held out in turn), answering from 0.5.
 */
export function crossValidate(samples: Sample[], folds = 5): { answerable: [number, number]; unanswerable: [number, number] } {
  const answerable: [number, number] = [0, 0];
  const unanswerable: [number, number] = [0, 0];
  for (let f = 0; f < folds; f++) {
    const weights = fitLogistic(samples.filter((_, i) => i % folds !== f));
    for (const sample of samples.filter((_, i) => i % folds === f)) {
      const answered = answerProbability(sample.evidence, weights) >= ANSWER_PROBABILITY;
      if (sample.label === 1) answerable[answered ? 0 : 1]++;
      else unanswerable[answered ? 1 : 0]++;
    }
  }
  return { answerable, unanswerable };
}

/** Writes the fitted weights into the model file. */
export function writeModel(weights: number[], samples: number): void {
  const text = `/**
 * Weights of the answerability model, in the order of \`EVIDENCE_FEATURES\`, then the intercept.
 * Fitted by \`npm run eval -- --fit\` on the development part of the evaluation set (${samples} questions).
 */
export const ANSWERABILITY_WEIGHTS: readonly number[] = [${weights.join(', ')}];
`;
  fs.writeFileSync(MODEL_FILE, text);
}
