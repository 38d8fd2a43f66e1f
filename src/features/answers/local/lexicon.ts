/**
 * Word lexicons from Spanish, French, German, Portuguese and Italian to English, for a visitor who
 * writes in one of those languages to an English help centre: each of their words is read as the
 * English word it translates ("Rückerstattung" as "refund", "mochila" as "backpack"), and their
 * function words ("doch", "combien", "quanto") are dropped instead of counting as unmatched words.
 *
 * The data (`data/lexicon-<language>.tsv`, `data/function-words-<language>.txt`) was written for
 * Parley: 3,998 English words (the 3,000 most frequent content words of the shipped word vectors, a
 * list of help-desk words and one of everyday things, people and situations), each with up to four
 * translations, the usual dictionary form first. A translation is found by its stem in its own
 * language, so "bezahlt" meets "bezahlen"; a German compound the lexicon lacks is read as its last
 * part ("Jahresabo" as "Abo"). A word may mean several English words ("aplicación": enforcement,
 * application, app); `text.ts` chooses the one the knowledge uses.
 */
import fs from 'node:fs';
import type { PhraseLanguage } from './phrases.ts';
import { STEMMERS } from './stemmers.ts';

export type ForeignLanguage = Exclude<PhraseLanguage, 'en'>;
export const FOREIGN_LANGUAGES: readonly ForeignLanguage[] = ['es', 'fr', 'de', 'pt', 'it'];

interface Lexicon {
  /** Stem of a translation → the English words it translates, the likeliest first. */
  english: Map<string, string[]>;
  /** A translation as written → the English words it translates, the likeliest first. */
  exact: Map<string, string[]>;
  /** An English word's stem → its translations, the usual one first. */
  foreign: Map<string, string[]>;
  /** Function words, lower-case, as written. */
  functionWords: Set<string>;
  /** Every translation and function word as written, lower-case. */
  words: Set<string>;
}

const loaded = new Map<ForeignLanguage, Lexicon>();

const dataFile = (name: string) => new URL(`./data/${name}`, import.meta.url);

// The English words kept for one foreign word ("aplicación": enforcement, application, app).
const MEANINGS_KEPT = 4;
// The shortest parts a German compound is split into ("Jahres|abo").
const COMPOUND_MIN_PART = 3;
const COMPOUND_MIN_LENGTH = 8;

/** The lexicon of one language, read on first use (about 60 KB each). */
function lexiconOf(language: ForeignLanguage): Lexicon {
  let lexicon = loaded.get(language);
  if (lexicon) return lexicon;
  const stem = STEMMERS[language];
  const english = new Map<string, string[]>();
  const rows = fs
    .readFileSync(dataFile(`lexicon-${language}.tsv`), 'utf8')
    .split('\n')
    .map((line) => line.split('\t'))
    .filter((cells) => cells.length === 2 && cells[1]!.trim())
    .map(([word, translations]) => ({ word: word!.trim(), translations: translations!.split(',').map((t) => t.trim().toLowerCase()).filter((t) => t && !/[\s-]/.test(t)) }));
  // A word that is some row's first (usual) translation means that row's English word first; the
  // rows are in order of English frequency.
  const exact = new Map<string, string[]>();
  const longest = Math.max(0, ...rows.map((r) => r.translations.length));
  for (let position = 0; position < longest; position++) {
    for (const { word, translations } of rows) {
      const translation = translations[position];
      if (!translation) continue;
      for (const [map, key] of [[english, stem(translation)], [exact, translation]] as const) {
        const meanings = map.get(key) ?? [];
        if (meanings.length < MEANINGS_KEPT && !meanings.includes(word)) map.set(key, [...meanings, word]);
      }
    }
  }
  const functionWords = new Set(
    fs
      .readFileSync(dataFile(`function-words-${language}.txt`), 'utf8')
      .split('\n')
      .map((w) => w.trim().toLowerCase())
      .filter(Boolean),
  );
  const foreign = new Map<string, string[]>();
  for (const { word, translations } of rows) {
    const key = STEMMERS.en(word.toLowerCase());
    foreign.set(key, [...(foreign.get(key) ?? []), ...translations]);
  }
  const words = new Set([...rows.flatMap((r) => r.translations), ...functionWords]);
  lexicon = { english, exact, foreign, functionWords, words };
  loaded.set(language, lexicon);
  return lexicon;
}

/**
 * The English words a lower-case word of `language` may translate, the likeliest first ([] when the
 * lexicon lacks it). A German compound it lacks is read as its longest known last part.
 */
export function englishWordsFor(word: string, language: ForeignLanguage): readonly string[] {
  const { english, exact } = lexiconOf(language);
  const stem = STEMMERS[language];
  const direct = english.get(stem(word));
  // Words sharing a stem ("modo", a mode, and "moda", a fashion) mean first what the word as
  // written translates.
  const written = exact.get(word);
  if (direct && written && written[0] !== direct[0]) return [...new Set([...written, ...direct])].slice(0, MEANINGS_KEPT);
  if (direct || language !== 'de' || word.length < COMPOUND_MIN_LENGTH) return direct ?? NONE;
  for (let split = COMPOUND_MIN_PART; split <= word.length - COMPOUND_MIN_PART; split++) {
    const head = english.get(stem(word.slice(split)));
    if (head) return head;
  }
  return NONE;
}
const NONE: readonly string[] = [];

/** The words of `language` an English word translates to, the usual one first ([] when the lexicon lacks it). */
export function foreignWordsFor(englishWord: string, language: ForeignLanguage): readonly string[] {
  return lexiconOf(language).foreign.get(STEMMERS.en(englishWord)) ?? NONE;
}

/** True when a lower-case word is, as written, one of `language`'s words in its lexicon. */
export function isLexiconWord(word: string, language: ForeignLanguage): boolean {
  return lexiconOf(language).words.has(word);
}

/** True for a function word of `language` ("doch", "combien"): it names no topic. */
export function isForeignFunctionWord(word: string, language: ForeignLanguage): boolean {
  return lexiconOf(language).functionWords.has(word);
}
