#!/usr/bin/env node
/**
 * Builds parley-local's word associations (src/features/answers/local/data/word-associations.tsv)
 * from question and answer pairs written for Parley (scripts/data/question-answer-pairs/*.jsonl:
 * a customer's question in their own words, and the one help-centre sentence that answers it, for
 * sixty kinds of business; none is from the evaluation set). Run it again after adding pairs:
 *
 *   node --import tsx scripts/build-word-associations.ts
 *
 * Each pair is read as parley-local reads text (content terms, stems, synonyms). IBM Model 1, fitted
 * by expectation–maximisation, gives t(q | a): how likely an answer's term a is to be asked about as
 * the question's term q ("refund" as "money", "lift" as "wheelchair"). Kept: pairs of distinct terms
 * seen together in at least MIN_PAIRS pairs, with t at least MIN_T and a Dice coefficient (how much
 * their pairs overlap) at least MIN_DICE; terms with digits are left out. Each line: question term,
 * answer term, t, pairs seen together.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { contentTerms } from '../src/features/answers/local/text.ts';

const ITERATIONS = 15;
const MIN_PAIRS = 2;
const MIN_T = 0.1;
const MIN_DICE = 0.1;
const NULL_TERM = '\u0000';

const here = path.dirname(new URL(import.meta.url).pathname);
const pairsDir = path.join(here, 'data', 'question-answer-pairs');
/** Where the associations are kept. */
export const WORD_ASSOCIATIONS_FILE = path.join(here, '..', 'src', 'features', 'answers', 'local', 'data', 'word-associations.tsv');

/** The associations file's text, built from the pairs as the engine reads text today. */
export function buildWordAssociations(): { text: string; pairs: number; associations: number } {
  const pairs: { asked: string[]; answered: string[] }[] = [];
  for (const file of fs.readdirSync(pairsDir).filter((f) => f.endsWith('.jsonl')).sort()) {
    for (const line of fs.readFileSync(path.join(pairsDir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const { q, a } = JSON.parse(line) as { q: string; a: string };
      pairs.push({ asked: [...new Set(contentTerms(q))], answered: [...new Set(contentTerms(a))] });
    }
  }

  // t.get(a).get(q): the probability that answer term a is asked about as q (a "null" term absorbs the
  // question's words that no answer term explains).
  const t = new Map<string, Map<string, number>>();
  const askedTerms = new Set(pairs.flatMap((p) => p.asked));
  for (const { asked, answered } of pairs) {
    for (const a of [NULL_TERM, ...answered]) {
      const row = t.get(a) ?? t.set(a, new Map()).get(a)!;
      for (const q of asked) row.set(q, 1 / askedTerms.size);
    }
  }
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const counts = new Map<string, Map<string, number>>();
    const totals = new Map<string, number>();
    for (const { asked, answered } of pairs) {
      const sources = [NULL_TERM, ...answered];
      for (const q of asked) {
        const norm = sources.reduce((sum, a) => sum + t.get(a)!.get(q)!, 0);
        for (const a of sources) {
          const share = t.get(a)!.get(q)! / norm;
          const row = counts.get(a) ?? counts.set(a, new Map()).get(a)!;
          row.set(q, (row.get(q) ?? 0) + share);
          totals.set(a, (totals.get(a) ?? 0) + share);
        }
      }
    }
    for (const [a, row] of counts) for (const [q, count] of row) t.get(a)!.set(q, count / totals.get(a)!);
  }

  const together = new Map<string, number>();
  const askedIn = new Map<string, number>();
  const answeredIn = new Map<string, number>();
  for (const { asked, answered } of pairs) {
    for (const q of asked) askedIn.set(q, (askedIn.get(q) ?? 0) + 1);
    for (const a of answered) answeredIn.set(a, (answeredIn.get(a) ?? 0) + 1);
    for (const a of answered) for (const q of asked) together.set(`${q}\t${a}`, (together.get(`${q}\t${a}`) ?? 0) + 1);
  }
  const lines: string[] = [];
  for (const [a, row] of t) {
    if (a === NULL_TERM || /\d/.test(a)) continue;
    for (const [q, probability] of row) {
      if (q === a || /\d/.test(q)) continue;
      const seen = together.get(`${q}\t${a}`) ?? 0;
      const dice = (2 * seen) / (askedIn.get(q)! + answeredIn.get(a)!);
      if (seen >= MIN_PAIRS && probability >= MIN_T && dice >= MIN_DICE) lines.push(`${q}\t${a}\t${probability.toFixed(3)}\t${seen}`);
    }
  }
  lines.sort();
  return { text: `${lines.join('\n')}\n`, pairs: pairs.length, associations: lines.length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { text, pairs, associations } = buildWordAssociations();
  fs.writeFileSync(WORD_ASSOCIATIONS_FILE, text);
  console.log(`${pairs} pairs → ${associations} associations in ${path.relative(process.cwd(), WORD_ASSOCIATIONS_FILE)}`);
}
