/**
 * Which language `parley-local` writes its own phrases in: the forced one; else the visitor's
 * message when its language is clear; else the language the conversation was already in; else the
 * bot's, else English. A message is read by its function words (decisive even in three words) and by
 * franc's trigrams only when those are confident, since on a short question trigrams mislead (an
 * English question read as German or Portuguese).
 */
import { francAll } from 'franc';
import type { AnswerRequest } from '../answers.types.ts';
import { englishWordVectors, type WordVectors } from '../semantic/word-vectors.ts';
import { englishWordsFor, isLexiconWord, type ForeignLanguage } from './lexicon.ts';
import { PHRASE_LANGUAGES, type PhraseLanguage } from './phrases.ts';

const FRANC_CODES: Record<string, PhraseLanguage> = { eng: 'en', spa: 'es', fra: 'fr', deu: 'de', por: 'pt', ita: 'it' };
const FRANC_ONLY = Object.keys(FRANC_CODES);

// Measured on the 314 evaluation questions (eval/questions): franc's best guess alone was wrong for
// 25; function words, then franc above these, then both agreeing: 0 wrong, 6 undecided (1 and 5
// before "a" counted for Spanish, French and Italian too, and "em" for Portuguese).
const FRANC_MIN_MARGIN = 0.2;
const FRANC_MIN_LENGTH = 20;
// Function-word evidence: at least this much, and this many times the runner-up's.
const WORDS_MIN_SCORE = 1.5;
const WORDS_MIN_RATIO = 1.5;

// Frequent words of each language, written without diacritics (messages are folded the same way).
const FUNCTION_WORDS: Record<PhraseLanguage, string> = {
  en: `the is are was do does did you your what how can could i my me we our us with for and to of in on it an have has will
    there this that when where which much many long get any from at be if or not dont cant please thanks hi hello would should
    who why about yes no am its whats hows im ive youre theres they them their bye cheers hey great`,
  es: `a el la los las es son que como cuanto cuanta cuantos donde cuando puedo puede tienen tiene hay para por con una un mi mis y si se
    del al esta estan muy mas gracias hola vale quiero necesito tengo ustedes usted pero tambien hacen cual sale algun alguna
    he me lo nada nunca algo cuesta cuestan hace hacemos vais teneis podeis organizais os nos les`,
  fr: `a le la les est sont que comment combien ou quand je vous nous avec pour une un mon ma mes et si du des au aux cest ce cette pas
    peut puis merci bonjour il y chez votre vos quel quelle quels faut estce
    beaucoup coute coutent faire fait suis avez etes aussi leur`,
  de: `der die das ist sind wie was wo wann ich sie wir mit fur und ein eine einen mein meine kann konnen gibt es auch nicht bei ihr
    euch habt haben danke hallo zu von am im auf den dem mir mich dir bitte wieviel welche
    und oder offen bin hab kostet kosten muss werden wird noch schon`,
  pt: `o a os as e em sao que como quanto quanta quantos onde quando posso tem ha para por com uma um meu minha se do da dos das ao na no
    muito mais obrigado obrigada ola voces pode nao sim qual fazem aceitam
    sao tambem fica custa custam ate`,
  it: `a il lo la gli le e sono che come quanto quanta quanti dove quando posso avete ce per con una un mio mia se del della al nel
    molto piu grazie ciao voi potete non si anche qual fate sei
    ho da degli dei delle mi ti ci cosa devo dopo tocca mille costa costano aperti siete`,
};

const WORD_LANGUAGES = new Map<string, PhraseLanguage[]>();
for (const language of PHRASE_LANGUAGES) {
  for (const word of FUNCTION_WORDS[language].split(/\s+/).filter(Boolean)) {
    WORD_LANGUAGES.set(word, [...(WORD_LANGUAGES.get(word) ?? []), language]);
  }
}

const NAMES = new Map<string, PhraseLanguage>(Object.entries({
  english: 'en', spanish: 'es', español: 'es', espanol: 'es', french: 'fr', français: 'fr', francais: 'fr',
  german: 'de', deutsch: 'de', portuguese: 'pt', português: 'pt', portugues: 'pt', italian: 'it', italiano: 'it',
} as const));

/** The phrase language for a forced language tag or name ('pt-BR' → 'pt'); unknown tags give English. */
export function languageOfTag(tag: string): PhraseLanguage {
  const lower = tag.trim().toLowerCase();
  const primary = lower.split(/[-_]/)[0] ?? '';
  if ((PHRASE_LANGUAGES as readonly string[]).includes(primary)) return primary as PhraseLanguage;
  return NAMES.get(lower) ?? NAMES.get(primary) ?? 'en';
}

function foldedWords(text: string): string[] {
  return (text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[’']/g, '').match(/\p{L}+/gu) ?? []);
}

/** The language the message's function words point to, when they clearly do. */
function byFunctionWords(text: string, minScore = WORDS_MIN_SCORE, minRatio = WORDS_MIN_RATIO): PhraseLanguage | null {
  const scores = new Map<PhraseLanguage, number>();
  for (const word of new Set(foldedWords(text))) {
    const languages = WORD_LANGUAGES.get(word);
    if (!languages) continue;
    // A word of several languages is weaker evidence for each.
    for (const language of languages) scores.set(language, (scores.get(language) ?? 0) + 1 / languages.length);
  }
  const [best, second] = [...scores.entries()].sort((a, b) => b[1] - a[1]);
  if (!best) return null;
  // One language's own word, and no other language's, decides a message of two or three words.
  if (!second && best[1] >= 1) return best[0];
  if (best[1] < minScore || best[1] < minRatio * (second?.[1] ?? 0)) return null;
  return best[0];
}

/** franc's guess among the six, when the text is long enough and the guess is clear. */
function byTrigrams(text: string): PhraseLanguage | null {
  if (text.trim().length < FRANC_MIN_LENGTH) return null;
  const [best, second] = francAll(text, { only: FRANC_ONLY, minLength: 1 });
  if (!best || 1 - (second?.[1] ?? 0) < FRANC_MIN_MARGIN) return null;
  return FRANC_CODES[best[0]] ?? null;
}

// Addresses and links are no language's words ("ana@example.com" is not Portuguese for "with").
const NOT_WORDS = /\S+@\S+|\bhttps?:\/\/\S+|\bwww\.\S+/giu;

/** The language of a visitor's text among the six, or null when it cannot tell with confidence. */
export function detectLanguage(text: string): PhraseLanguage | null {
  const words = text.replace(NOT_WORDS, ' ');
  return byFunctionWords(words) ?? byTrigrams(words) ?? byAgreement(words);
}

/** Weaker evidence of both kinds pointing the same way. */
function byAgreement(text: string): PhraseLanguage | null {
  const words = byFunctionWords(text, 0.5, 1.5);
  if (!words) return null;
  const [best] = francAll(text, { only: FRANC_ONLY, minLength: 1 });
  return best && FRANC_CODES[best[0]] === words ? words : null;
}

// The letters beyond ASCII each language writes (and Spanish's opening marks).
const LETTERS: Record<PhraseLanguage, string> = {
  en: '',
  es: 'áéíóúñü¿¡',
  fr: 'éèêëàâîïôûùçœæÿ',
  de: 'äöüß',
  pt: 'áâãàéêíóôõúç',
  it: 'àèéìíòóù',
};

/** An English word: one of English's function words, or a word of the English vocabulary that is no other language's function word ("de", "la", "para"). */
function isEnglishWord(word: string, lexicon: WordVectors): boolean {
  const languages = WORD_LANGUAGES.get(word.normalize('NFKD').replace(/\p{M}/gu, ''));
  return languages ? languages.includes('en') : lexicon.hasWord(word);
}

/**
 * The language of a message that `detectLanguage` could not tell ("Öffnungszeiten?", "Orari?"):
 * when most of its words are not English words (see `isEnglishWord`), it is one
 * of the other five whose letters it uses; the knowledge's own language among those, else the one
 * whose lexicon (`lexicon.ts`) holds the most of its words, else franc's best among them when the
 * message says enough (two such words, or letters English lacks). A message of English words, or
 * one unknown word such as a name, stays undecided.
 */
export function guessUnclearLanguage(text: string, knowledge: PhraseLanguage | null, lexicon: WordVectors = englishWordVectors()): PhraseLanguage | null {
  const cleaned = text.replace(NOT_WORDS, ' ').toLowerCase();
  const words = cleaned.match(/\p{L}+/gu) ?? [];
  if (words.length === 0) return null;
  const foreign = words.filter((word) => !isEnglishWord(word, lexicon)).length;
  if (foreign / words.length < 0.5) return null;
  const marks = new Set(cleaned.match(/[¿¡]|[^\p{ASCII}\P{L}]/gu) ?? []);
  const candidates = PHRASE_LANGUAGES.filter((language) => language !== 'en' && [...marks].every((mark) => LETTERS[language].includes(mark)));
  if (candidates.length === 0) return null;
  if (knowledge && candidates.includes(knowledge)) return knowledge;
  // The lexicons know the five languages' everyday words ("orari", "occhiali", "Lieferung").
  const byLexicon = byLexiconWords(words.filter((word) => !isEnglishWord(word, lexicon)), candidates as ForeignLanguage[]);
  if (byLexicon) return byLexicon;
  if (marks.size === 0 && foreign < 2) return null;
  const codes = FRANC_ONLY.filter((code) => candidates.includes(FRANC_CODES[code]!));
  const [best] = francAll(cleaned, { only: codes, minLength: 1 });
  return (best && FRANC_CODES[best[0]]) || null;
}

/**
 * The one language among `candidates` whose lexicon holds more of the words than any other's, if one
 * does: as written first, else by the language's stem ("horaires" is a form of "horaire").
 */
function byLexiconWords(words: string[], candidates: ForeignLanguage[]): PhraseLanguage | null {
  for (const holds of [isLexiconWord, (word: string, language: ForeignLanguage) => englishWordsFor(word, language).length > 0]) {
    const hits = candidates.map((language) => [language, words.filter((word) => holds(word, language)).length] as const).sort((a, b) => b[1] - a[1]);
    const [best, second] = hits;
    if (best && best[1] > 0) return best[1] > (second?.[1] ?? 0) ? best[0] : null;
  }
  return null;
}

/**
 * The language of the engine's phrases for a request: `responseLanguage` (when given) or the bot's
 * `response_language` when not empty; else the message's own language when clear (a small-talk
 * hint counts); else the language of the visitor's earlier messages; else, for a message that is
 * clearly not English, the guess of `guessUnclearLanguage` (the language of the knowledge the
 * question reached, when known, tips it); else English.
 */
export function chooseLanguage(request: AnswerRequest, hint?: PhraseLanguage, knowledge: PhraseLanguage | null = null): PhraseLanguage {
  const forced = request.responseLanguage ?? request.bot.response_language;
  if (forced && forced.trim()) return languageOfTag(forced);
  const own = detectLanguage(request.question);
  if (own) return own;
  if (hint) return hint;
  const earlier = request.history.filter((t) => t.role === 'user').map((t) => t.content);
  for (let i = earlier.length - 1; i >= 0; i--) {
    const language = detectLanguage(earlier[i]!);
    if (language) return language;
  }
  return guessUnclearLanguage(request.question, knowledge) ?? 'en';
}
