/**
 * From scored sentences to an answer: the best one, a neighbour that continues it, up to two more
 * that add to it and the rest of a short section; or nothing when the best does not answer enough
 * of the question.
 */
import type { AnswerSource } from '../answers.types.ts';
import { ANSWER_PROBABILITY, answerProbability, evidenceOf, type Evidence } from './answerability.ts';
import type { QueryModel, ScoredUnit, Scoring } from './scoring.ts';

const MAX_UNITS = 3;
// A further sentence must answer at least this share of what the best one answers.
const FURTHER_SHARE = 0.7;
// A best sentence shorter than this brings the next one along.
const SHORT_UNIT_WORDS = 14;

// A headed section this short is quoted whole after its best sentence: it is the business's own
// answer on one topic, its conditions and exceptions included, and still reads at a glance.
const WHOLE_SECTION_WORDS = 80;

const wordsIn = (text: string) => text.split(/\s+/).filter(Boolean).length;
const NEAR_DUPLICATE = 0.6;

// A sentence that leans on the one before it.
const LEANS_BACK = /^(?:it|this|that|these|those|they|them|then|there|however|but|otherwise|also|so|in that case|in both cases|if not|after that|each|both|doing so)\b/i;

/** What the engine would quote and how sure it is that it answers. */
export interface Selection {
  /** The sentences to quote, best first; [] when the answer is a refusal. */
  units: ScoredUnit[];
  /** The rest of the best sentence's section when it is short, quoted after the sentences around the best. */
  rest: ScoredUnit[];
  /** What the decision read, and its probability (absent when nothing was retrieved). */
  evidence?: Evidence;
  probability: number;
}

/**
 * The sentences to quote, best first, when the knowledge answers the question; `alwaysAnswer`
 * skips the decision (the evaluation fits the decision on what would have been said).
 */
export function selectUnits(query: QueryModel, { units: scored, ...scoring }: Scoring, alwaysAnswer = false): Selection {
  const best = scored[0];
  if (!best) return { units: [], rest: [], probability: 0 };
  const evidence = evidenceOf(query, best, { units: scored, ...scoring });
  const probability = answerProbability(evidence);
  if (probability < ANSWER_PROBABILITY && !alwaysAnswer) return { units: [], rest: [], evidence, probability };
  const neighbour = (unit: ScoredUnit, step: number) =>
    scored.find((u) => u.passage === unit.passage && u.index === unit.index + step);
  // A later sentence of a list item ("Sees patients on Tuesdays.") is quoted after the item's first,
  // which names what the item is about ("Dr. Henrik Solberg: Oral surgeon.").
  const itemLead = best.itemStart !== best.index ? neighbour(best, best.itemStart - best.index) : undefined;
  // (The joined text starts the item, so it is quoted with the item's marker.)
  const chosen: ScoredUnit[] = [itemLead ? { ...best, text: `${itemLead.text} ${best.text}`, itemStart: best.index } : best];

  const previous = neighbour(best, -1);
  if (previous && previous !== itemLead && LEANS_BACK.test(best.text)) chosen.push(previous);
  const next = neighbour(best, 1);
  // A short sentence or a list item rarely says all: the one after it in the passage often completes it.
  if (next && (best.text.trimEnd().endsWith(':') || LEANS_BACK.test(next.text) || wordsIn(best.text) < SHORT_UNIT_WORDS || best.listItem)) {
    chosen.push(next);
  }
  // Asked for a value ("how long", "how much") the best sentence lacks: the sentence after it often holds it.
  if (best.answersKind === false) {
    const holder = [next, neighbour(best, 2)].find((u) => u?.answersKind === true);
    if (holder && !chosen.includes(holder)) chosen.push(holder);
  }

  for (const unit of scored.slice(1)) {
    if (chosen.length >= MAX_UNITS) break;
    if (chosen.includes(unit) || unit === itemLead || unit.softCoverage < FURTHER_SHARE * best.softCoverage) continue;
    // Scores are log-odds of answering (the ranking is a fitted softmax): a further sentence must be
    // nearly as likely to answer as the best, the more so the further it is from it.
    const likelihood = Math.exp(unit.score - best.score);
    const near = unit.passage === best.passage ? 0.05 : unit.passage.sourceTitle === best.passage.sourceTitle ? 0.1 : 0.3;
    if (likelihood < near) continue;
    if (chosen.some((c) => overlap(c.terms, unit.terms) > NEAR_DUPLICATE)) continue;
    if (!addsSomething(unit, chosen)) continue;
    chosen.push(unit);
  }
  return { units: chosen, rest: restOfSection(best, scored, chosen, itemLead), evidence, probability };
}

// A sentence that is itself a question, bold ("**Can I bring a guest?**") or not.
const ASKS = /\?[*_"'”’)\s]*$/;

// A list item that opens with a bold label ("**Dr. Amara Okafor**: Clinical director."): the list is
// a directory of separate entries, not the clauses of one answer.
const LABELLED_ENTRY = /^\*\*[^*]+\*\*\s*[:—–]/;

/**
 * The sentences of the best one's section not yet chosen, when the section is headed (one topic, not
 * a stretch of pasted text), short, and not a directory of labelled entries. A section is a passage,
 * or the part of one under a heading or a bold FAQ question. A sentence that is itself a question
 * (an FAQ's question, or one repeated in its answer) is left out.
 */
function restOfSection(best: ScoredUnit, scored: ScoredUnit[], chosen: ScoredUnit[], itemLead: ScoredUnit | undefined): ScoredUnit[] {
  if (!best.passage.heading.trim() && !best.localHeading) return [];
  // Within its passage, the section is the run of units under the best one's own heading or FAQ question.
  const passage = scored.filter((u) => u.passage === best.passage).sort((a, b) => a.index - b.index);
  const at = passage.indexOf(best);
  let [from, to] = [at, at];
  while (from > 0 && passage[from - 1]!.localHeading === best.localHeading) from--;
  while (to < passage.length - 1 && passage[to + 1]!.localHeading === best.localHeading) to++;
  const section = passage.slice(from, to + 1);
  if (section.some((u) => u.listItem && LABELLED_ENTRY.test(u.text))) return [];
  if (section.reduce((n, u) => n + wordsIn(u.text), 0) > WHOLE_SECTION_WORDS) return [];
  // The best sentence may carry its list item's first sentence in its own text.
  const quoted = (u: ScoredUnit) => chosen.some((c) => c.passage === u.passage && c.index === u.index) || (itemLead !== undefined && u.index >= itemLead.index && u.index <= best.index);
  return section.filter((u) => !quoted(u) && !ASKS.test(u.text)).sort((a, b) => a.index - b.index);
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
export function composeAnswer(chosen: ScoredUnit[], leadIn: (title: string) => string, rest: ScoredUnit[] = []): { text: string; sources: AnswerSource[] } {
  const sources: AnswerSource[] = [];
  const groups = new Map<string, ScoredUnit[]>();
  const trailing = new Set(rest);
  for (const unit of [...chosen, ...rest]) {
    const key = `${unit.passage.sourceTitle}\u0000${unit.passage.sourceUrl}`;
    if (!groups.has(key)) {
      groups.set(key, []);
      sources.push({ title: unit.passage.sourceTitle, url: unit.passage.sourceUrl });
    }
    groups.get(key)!.push(unit);
  }
  const blocks: string[] = [];
  for (const units of groups.values()) {
    // The best sentence leads, with the neighbours it was quoted with in their order of writing; the
    // rest of its section, then further sentences, follow in theirs.
    const lead = units[0]!;
    // Numbered steps quoted whole are read in their order, wherever the best one stands.
    const steps = units.some((u) => trailing.has(u) && /^\d/.test(u.marker));
    const withLead = (u: ScoredUnit) =>
      steps && u.passage === lead.passage ? 0 : trailing.has(u) ? 1 : u.passage === lead.passage && Math.abs(u.index - lead.index) <= 1 ? 0 : 2;
    units.sort((a, b) => withLead(a) - withLead(b) || a.rank - b.rank || a.index - b.index);
    const first = units[0]!;
    // Lines of a list keep their markers ("1.", "-"; a table row is a bullet), so that numbered steps
    // keep their numbers and the chat renders a list; a later sentence of an item continues it.
    const listed = units.some((u) => u.listItem);
    const lines = units.map((u) => (listed && u.listItem && u.itemStart === u.index ? `${u.marker || '-'} ${u.text}` : u.text));
    const body = listed ? lines.join('\n') : lines.join(' ');
    // A bare list item or table row reads better after a line naming where it comes from.
    const bare = first.listItem && !/^\p{Lu}.*[.!?]$/u.test(first.text);
    // The section a bare item sits in often names what it is about ("Keiko Tan" above her specialties).
    const section = first.passage.heading.split(' > ').at(-1)?.trim();
    const place = section && section !== first.passage.sourceTitle ? `${first.passage.sourceTitle} › ${section}` : first.passage.sourceTitle;
    blocks.push(bare ? `${leadIn(place)}\n${body}` : body);
  }
  return { text: blocks.join('\n\n'), sources };
}
