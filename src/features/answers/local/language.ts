/** Which language `parley-local` writes its own phrases in: the forced one, else the visitor's. */
import { franc } from 'franc';
import type { AnswerRequest } from '../answers.types.ts';
import { PHRASE_LANGUAGES, type PhraseLanguage } from './phrases.ts';

const FRANC_CODES: Record<string, PhraseLanguage> = { eng: 'en', spa: 'es', fra: 'fr', deu: 'de', por: 'pt', ita: 'it' };
// Trigram detection is unreliable on a few words; shorter texts borrow the visitor's earlier turns.
const MIN_DETECT_LENGTH = 12;
const SHORT_MESSAGE = 30;

const NAMES: Record<string, PhraseLanguage> = {
  english: 'en', spanish: 'es', español: 'es', espanol: 'es', french: 'fr', français: 'fr', francais: 'fr',
  german: 'de', deutsch: 'de', portuguese: 'pt', português: 'pt', portugues: 'pt', italian: 'it', italiano: 'it',
};

/** The phrase language for a forced language tag or name ('pt-BR' → 'pt'); unknown tags give English. */
export function languageOfTag(tag: string): PhraseLanguage {
  const lower = tag.trim().toLowerCase();
  const primary = lower.split(/[-_]/)[0] ?? '';
  if ((PHRASE_LANGUAGES as readonly string[]).includes(primary)) return primary as PhraseLanguage;
  return NAMES[lower] ?? NAMES[primary] ?? 'en';
}

/** The language of a visitor's text among the six, or null when it cannot tell. */
export function detectLanguage(text: string): PhraseLanguage | null {
  const code = franc(text, { only: Object.keys(FRANC_CODES), minLength: MIN_DETECT_LENGTH });
  return FRANC_CODES[code] ?? null;
}

/**
 * The language of the engine's phrases for a request: `responseLanguage` (when given) or the bot's
 * `response_language` when not empty; else the visitor's language (a small-talk hint first, then
 * detection), falling back to English.
 */
export function chooseLanguage(request: AnswerRequest, hint?: PhraseLanguage): PhraseLanguage {
  const forced = request.responseLanguage ?? request.bot.response_language;
  if (forced && forced.trim()) return languageOfTag(forced);
  if (hint) return hint;
  let text = request.question.trim();
  if (text.length < SHORT_MESSAGE) {
    const earlier = request.history.filter((t) => t.role === 'user').map((t) => t.content);
    text = [...earlier.slice(-2), text].join('\n');
  }
  return detectLanguage(text) ?? 'en';
}
