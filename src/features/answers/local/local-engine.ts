/**
 * `parley-local`: the embedded answer engine. No network, no model, deterministic: it answers small
 * talk, otherwise quotes the knowledge sentences that best answer the question (verbatim, with
 * their sources), and says it does not know when nothing answers enough of it.
 */
import type { AnswerEngine, AnswerRequest, AnswerSource, AnswerStream, ChatTurn, RetrievedPassage, Retriever } from '../answers.types.ts';
import { attachedPassages } from './attached-passages.ts';
import { chooseLanguage, detectLanguage } from './language.ts';
import { PHRASES, type PhraseLanguage, type Phrases } from './phrases.ts';
import { prepareQuery, type PreparedQuery } from './query.ts';
import { knowledgeLanguage, retrieveForQuestion } from '../question-retrieval.ts';
import type { Evidence } from './answerability.ts';
import { knowledgeTerms, scoreUnits } from './scoring.ts';
import { composeAnswer, selectUnits, type Selection } from './select.ts';
import { recogniseSmallTalk, stripGreeting, type SmallTalk } from './small-talk.ts';

/** The engine name the chat layer records. */
export const LOCAL_ENGINE_NAME = 'parley-local';

export const PASSAGES_TO_READ = 8;
const WORDS_PER_CHUNK = 3;

/** What the engine decided to say, before streaming. */
export interface LocalAnswer {
  text: string;
  sources: AnswerSource[];
  kind: 'answer' | 'refusal' | SmallTalk['kind'];
  /** The language code of the reply. */
  language: string;
  /** For questions: what the answer decision read and its probability. */
  decision?: { evidence?: Evidence; probability: number };
}

/**
 * How to compose: `alwaysAnswer` quotes the best sentences even when unsure, and `rankingWeights`
 * replaces the fitted sentence ranking (both for fitting the models on the evaluation set).
 */
export interface ComposeOptions {
  alwaysAnswer?: boolean;
  rankingWeights?: readonly number[];
}

/** Creates `parley-local` over a retriever. */
export function createLocalEngine({ retriever }: { retriever: Retriever }): AnswerEngine {
  return {
    async answer(request: AnswerRequest): Promise<AnswerStream> {
      request.signal?.throwIfAborted();
      const result = await composeLocalAnswer(retriever, request);
      return streamOf(result);
    },
  };
}

/** Works out the whole answer for a request (the engine streams it afterwards). */
export async function composeLocalAnswer(retriever: Retriever, request: AnswerRequest, options: ComposeOptions = {}): Promise<LocalAnswer> {
  const { bot } = request;
  const question = request.question.trim();
  const smallTalk = recogniseSmallTalk(question, bot.name);
  if (smallTalk) {
    const language = chooseLanguage(request, smallTalk.language ?? undefined);
    const phrases = PHRASES[language];
    const text =
      smallTalk.kind === 'greeting'
        ? (!request.welcomeShown && bot.welcome_message.trim()) || phrases.greeting
        : smallTalk.kind === 'identity'
          ? phrases.identity(bot.name)
          : smallTalk.kind === 'human'
            ? `${phrases.human}${leaveContactFor(bot, phrases)}`
            : phrases[smallTalk.kind];
    return { text, sources: [], kind: smallTalk.kind, language };
  }

  const asked = stripGreeting(question);
  const written = detectLanguage(asked) ?? undefined;
  const { query: scored, passages, knowledge } = await readQuestion(retriever, bot.id, asked, request.history, written, request.attachments);
  const language = chooseLanguage(request, undefined, knowledge);
  const phrases = PHRASES[language];
  const selection = chooseUnits(asked, request.history, scored, passages, options, written);
  const decision = { evidence: selection.evidence, probability: selection.probability };
  if (selection.units.length === 0) {
    const text = bot.strict_mode ? phrases.dontKnow : `${phrases.dontKnow} ${phrases.invite}${leaveContactFor(bot, phrases)}`;
    return { text, sources: [], kind: 'refusal', decision, language };
  }
  return { ...composeAnswer(selection.units, phrases.leadIn, selection.rest), kind: 'answer', decision, language };
}

/** The invitation to leave contact details, only where lead capture keeps them ('' otherwise). */
function leaveContactFor(bot: AnswerRequest['bot'], phrases: Phrases): string {
  return bot.lead_capture_enabled ? ` ${phrases.leaveContact}` : '';
}

/** A question read against the knowledge: its passages, their language, and its terms in that language. */
export interface ReadQuestion {
  query: PreparedQuery;
  passages: RetrievedPassage[];
  knowledge: PhraseLanguage | null;
}

/**
 * Retrieves the passages for a question (`written` in that language, when clear) and prepares it
 * for scoring in the language of the knowledge it reaches: a visitor writing in another language than
 * the knowledge's has their words read as the knowledge's words.
 */
export async function readQuestion(retriever: Retriever, botId: string, asked: string, history: ChatTurn[], written: PhraseLanguage | undefined, attachments?: AnswerRequest['attachments']): Promise<ReadQuestion> {
  const { query, retrieved, knowledge: found } = await retrieveForQuestion(retriever, botId, asked, history, written, PASSAGES_TO_READ);
  // The visitor's own documents lead: a question asked after an upload is most likely about it.
  const attached = query.searchText ? attachedPassages(attachments, query) : [];
  const passages = attached.length > 0 ? [...attached, ...retrieved] : retrieved;
  const knowledge = attached.length > 0 ? knowledgeLanguage(passages) : found;
  // The question is scored in the knowledge's stemming (the search above needed only its words).
  const stemming = stemmingLanguage(written, knowledge);
  // English and another language: the visitor's words are read as the knowledge's, among the
  // translations each may have, the knowledge's own terms deciding.
  const translated = written !== undefined && written !== stemming && (written === 'en' || stemming === 'en');
  if (stemming === 'en' && !translated) return { query, passages, knowledge };
  return { query: prepareQuery(asked, history, stemming, written, translated ? knowledgeTerms(passages, stemming) : undefined), passages, knowledge };
}

/** The language a question and its passages are stemmed in: the knowledge's, else the question's (`written`, when clear), else English. */
export function stemmingLanguage(written: PhraseLanguage | undefined, knowledge: PhraseLanguage | null): PhraseLanguage {
  return knowledge ?? written ?? 'en';
}

// "Where is the showroom and when is it open?": two questions joined by "and".
const TWO_QUESTIONS = /^(.{8,}?)\s*,?\s+and\s+((?:what|when|where|how|which|who|why|is|are|does|do|can|could|will)\b.{6,})$/i;

/** The sentences answering the question, or each of two joined questions (the first one leads). */
function chooseUnits(asked: string, history: ChatTurn[], query: PreparedQuery, passages: RetrievedPassage[], { alwaysAnswer = false, rankingWeights }: ComposeOptions, written?: PhraseLanguage): Selection {
  const parts = query.followUp ? null : TWO_QUESTIONS.exec(asked);
  if (!parts) return selectUnits(query.model, scoreUnits(query.model, passages, rankingWeights), alwaysAnswer);
  const first = prepareQuery(parts[1]!, history, query.model.language, written);
  // The second question reads as a follow-up of the first ("… and when is it open?").
  const second = prepareQuery(parts[2]!, [...history, { role: 'user', content: parts[1]! }], query.model.language, written);
  const a = selectUnits(first.model, scoreUnits(first.model, passages, rankingWeights), alwaysAnswer);
  // "Does Tomás offer meal plans, and how much do they cost?": a second half that leans on the first
  // is answered only when the first is.
  if (second.followUp && a.units.length === 0) return a;
  const b = selectUnits(second.model, scoreUnits(second.model, passages, rankingWeights), alwaysAnswer);
  const units = [...a.units.slice(0, 2), ...b.units.filter((u) => !a.units.some((x) => x.text === u.text))].slice(0, 3);
  const lead = a.units.length ? a : b;
  return { units, rest: [], evidence: lead.evidence, probability: Math.max(a.probability, b.probability) };
}

/** Streams the text in groups of a few words, as a provider's tokens would arrive. */
function streamOf(result: LocalAnswer): AnswerStream {
  const pieces = result.text.match(/\s*\S+/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < pieces.length; i += WORDS_PER_CHUNK) chunks.push(pieces.slice(i, i + WORDS_PER_CHUNK).join(''));
  return {
    engine: LOCAL_ENGINE_NAME,
    outcome: result.kind === 'answer' || result.kind === 'refusal' ? result.kind : 'small_talk',
    language: result.language,
    chunks: (async function* () {
      yield* chunks;
    })(),
    sources: () => result.sources.map((s) => ({ ...s })),
  };
}
