/**
 * Whether the knowledge answers the question: a probability from what the best sentence and the
 * retrieved passages hold, by a logistic model fitted on the evaluation's development part
 * (`npm run eval -- --fit` prints new weights; the held-out part only reports how it does).
 */
import { embedLocally, embedTerms } from '../semantic/embeddings.ts';
import { dot } from '../semantic/word-vectors.ts';
import { contentTerms } from './text.ts';
import { ANSWERABILITY_WEIGHTS } from './answerability-model.ts';
import type { QueryModel, ScoredUnit, Scoring } from './scoring.ts';

/** What the decision reads, each in [0, 1] or -1..1. */
export interface Evidence {
  /** Share of the question's weight in the best sentence (exact words, headings in part). */
  coverage: number;
  /** The same with words near in meaning counting in part. */
  softCoverage: number;
  /** Share of the question's weight anywhere in the best sentence's passage. */
  passageCoverage: number;
  /** Share of the question's weight found in no retrieved passage at all. */
  absent: number;
  /** 1 when the question asks for a kind of value the sentence holds, -1 when it lacks it, 0 when none is asked. */
  kind: number;
  /** Share of the question's topic words in the sentence. */
  topicShare: number;
  /** 1 when the sentence comes from the first retrieved passage. */
  topPassage: number;
  /** Cosine of the question's and the sentence's offline embeddings (0 when either has none). */
  meaning: number;
  /** How long the question is: its content words over 12, at most 1 (a long question rarely finds all its words). */
  length: number;
  /** 1 when the question asks whether something exists or is offered ("Do you have…", "Is there…"). */
  existence: number;
}

/** The features in the order of the model's weights (the intercept comes last). */
export const EVIDENCE_FEATURES: (keyof Evidence)[] = ['coverage', 'softCoverage', 'passageCoverage', 'absent', 'kind', 'topicShare', 'topPassage', 'meaning', 'length', 'existence'];

// "Do you have…", "Is there…", "¿Hay…?", "Y a-t-il…", "Gibt es…", "Vocês têm…", "Avete…".
const ASKS_EXISTENCE =
  /^(?:do|does) (?:you|they|the [\p{L}\p{N}]+|[\p{L}\p{N}]+) (?:have|offer|sell|rent|make|provide|do|run|support|accept)(?!\p{L})|^(?:is|are) there\b|^can i (?:get|buy|rent|book)(?!\p{L})(?! (?:my|our|me|us|it|this|that|them|back)\b)|^¿?(?:hay|tienen|ofrecen|hacéis|organizáis|tenéis|vendéis|venden|alquiláis|alquilan)(?!\p{L})|^(?:y a-t-il|est-ce qu'il y a|avez-vous|proposez-vous|vous avez|vous proposez|louez-vous|vendez-vous|est-ce que vous (?:avez|proposez|louez|vendez|faites))(?!\p{L})|^(?:gibt es|habt ihr|haben sie|bietet ihr|bieten sie|verkauft ihr|verleiht ihr|vermietet ihr)(?!\p{L})(?![^?]*\bauf\s*\??$)|^(?:há|tem|têm|vocês têm|fazem|vocês vendem|vocês alugam)(?!\p{L})|^(?:c'è|ci sono|avete|fate|offrite|vendete|noleggiate|affittate)(?!\p{L})/iu;

/** Answer when the probability is at least this. */
export const ANSWER_PROBABILITY = 0.5;

/** The evidence for answering the question with the best sentence. */
export function evidenceOf(query: QueryModel, best: ScoredUnit, scoring: Scoring): Evidence {
  const { question, written, language = 'en' } = query;
  // Read as the engine reads it: the visitor's function words aside and, asked of English knowledge,
  // their words in English. The vectors are English: asked of knowledge in another language, the
  // question is embedded as English text.
  const read = contentTerms(question, language, written);
  const asked = embedTerms(language === 'en' ? read : contentTerms(question));
  const said = embedLocally(`${best.passage.heading}\n${best.text}`);
  return {
    meaning: asked && said ? dot(asked, said) : 0,
    coverage: best.coverage,
    softCoverage: best.softCoverage,
    passageCoverage: best.passageCoverage,
    absent: scoring.absent,
    kind: best.answersKind === null ? 0 : best.answersKind ? 1 : -1,
    topicShare: scoring.topicWords === 0 ? 1 : Math.min(1, best.topicMatches / scoring.topicWords),
    topPassage: best.rank === 0 ? 1 : 0,
    length: Math.min(1, read.length / 12),
    existence: ASKS_EXISTENCE.test(question) ? 1 : 0,
  };
}

/** The probability that the best sentence answers the question. */
export function answerProbability(evidence: Evidence, weights: readonly number[] = ANSWERABILITY_WEIGHTS): number {
  let z = weights[EVIDENCE_FEATURES.length]!;
  EVIDENCE_FEATURES.forEach((feature, i) => (z += weights[i]! * evidence[feature]));
  return 1 / (1 + Math.exp(-z));
}
