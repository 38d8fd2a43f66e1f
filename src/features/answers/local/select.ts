/**
 * From scored sentences to an answer: the best one, a neighbour that continues it, and up to two
 * more that add to it; or nothing when the best does not answer enough of the question.
 */
import type { AnswerSource } from '../answers.types.ts';
import type { ScoredUnit } from './scoring.ts';

/** Below this share of the question's weight the engine says it does not know. */
export const ANSWER_THRESHOLD = 0.48;
const MAX_UNITS = 3;
const NEAR_DUPLICATE = 0.6;

// A sentence that leans on the one before it.
const LEANS_BACK = /^(?:it|this|that|these|those|they|them|then|there|however|but|otherwise|also|so|in that case|in both cases|if not|after that|each|both|doing so)\b/i;

/** The sentences to quote, best first, or [] when nothing passes the threshold. */
export function selectUnits(scored: ScoredUnit[], topicWords: number): ScoredUnit[] {
  const best = scored[0];
  if (!best || best.coverage < ANSWER_THRESHOLD) return [];
  // A question about two things is not answered by a sentence about one of them.
  if (best.topicMatches < Math.min(2, topicWords)) return [];
  const chosen: ScoredUnit[] = [best];
  const neighbour = (unit: ScoredUnit, step: number) =>
    scored.find((u) => u.passage === unit.passage && u.index === unit.index + step);

  const previous = neighbour(best, -1);
  if (previous && LEANS_BACK.test(best.text)) chosen.push(previous);
  const next = neighbour(best, 1);
  if (next && (best.text.trimEnd().endsWith(':') || LEANS_BACK.test(next.text))) {
    chosen.push(next);
  }

  for (const unit of scored.slice(1)) {
    if (chosen.length >= MAX_UNITS) break;
    if (chosen.includes(unit) || unit.coverage < ANSWER_THRESHOLD) continue;
    // The further from the best sentence, the closer its score must be.
    const near = unit.passage === best.passage ? 0.5 : unit.passage.sourceTitle === best.passage.sourceTitle ? 0.8 : 0.95;
    if (unit.score < near * best.score) continue;
    if (chosen.some((c) => overlap(c.terms, unit.terms) > NEAR_DUPLICATE)) continue;
    if (!addsSomething(unit, chosen)) continue;
    chosen.push(unit);
  }
  return chosen;
}

function overlap(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / Math.max(1, Math.min(a.size, b.size));
}

function addsSomething(unit: ScoredUnit, chosen: ScoredUnit[]): boolean {
  let fresh = 0;
  for (const t of unit.terms) if (!chosen.some((c) => c.terms.has(t))) fresh++;
  return fresh >= 2;
}

/** The answer text: sentences grouped by source (best source first) in their order of writing. */
export function composeAnswer(chosen: ScoredUnit[], leadIn: (title: string) => string): { text: string; sources: AnswerSource[] } {
  const sources: AnswerSource[] = [];
  const groups = new Map<string, ScoredUnit[]>();
  for (const unit of chosen) {
    const key = `${unit.passage.sourceTitle}\u0000${unit.passage.sourceUrl}`;
    if (!groups.has(key)) {
      groups.set(key, []);
      sources.push({ title: unit.passage.sourceTitle, url: unit.passage.sourceUrl });
    }
    groups.get(key)!.push(unit);
  }
  const blocks: string[] = [];
  for (const units of groups.values()) {
    units.sort((a, b) => a.rank - b.rank || a.index - b.index);
    const first = units[0]!;
    const lines = units.map((u) => u.text);
    const body = units.some((u) => u.listItem) ? lines.join('\n') : lines.join(' ');
    // A bare list item or table row reads better after a line naming where it comes from.
    const bare = first.listItem && !/^\p{Lu}.*[.!?]$/u.test(first.text);
    blocks.push(bare ? `${leadIn(first.passage.sourceTitle)}\n${body}` : body);
  }
  return { text: blocks.join('\n\n'), sources };
}
