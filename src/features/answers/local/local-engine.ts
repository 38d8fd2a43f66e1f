/**
 * `parley-local`: the embedded answer engine. No network, no model, deterministic: it answers small
 * talk, otherwise quotes the knowledge sentences that best answer the question (verbatim, with
 * their sources), and says it does not know when nothing answers enough of it.
 */
import type { AnswerEngine, AnswerRequest, AnswerSource, AnswerStream, ChatTurn, RetrievedPassage, Retriever } from '../answers.types.ts';
import { attachedPassages } from './attached-passages.ts';
import { chooseLanguage } from './language.ts';
import { PHRASES } from './phrases.ts';
import { prepareQuery, type PreparedQuery } from './query.ts';
import { scoreUnits, TOPIC_WEIGHT, type ScoredUnit } from './scoring.ts';
import { composeAnswer, selectUnits } from './select.ts';
import { recogniseSmallTalk, stripGreeting } from './small-talk.ts';

/** The engine name the chat layer records. */
export const LOCAL_ENGINE_NAME = 'parley-local';

const PASSAGES_TO_READ = 8;
const WORDS_PER_CHUNK = 3;

/** What the engine decided to say, before streaming. */
export interface LocalAnswer {
  text: string;
  sources: AnswerSource[];
  kind: 'answer' | 'refusal' | 'greeting' | 'thanks' | 'goodbye';
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
export async function composeLocalAnswer(retriever: Retriever, request: AnswerRequest): Promise<LocalAnswer> {
  const { bot } = request;
  const question = request.question.trim();
  const smallTalk = recogniseSmallTalk(question, bot.name);
  if (smallTalk) {
    const phrases = PHRASES[chooseLanguage(request, smallTalk.language ?? undefined)];
    const text =
      smallTalk.kind === 'greeting' ? bot.welcome_message.trim() || phrases.greeting : smallTalk.kind === 'thanks' ? phrases.thanks : phrases.goodbye;
    return { text, sources: [], kind: smallTalk.kind };
  }

  const phrases = PHRASES[chooseLanguage(request)];
  const asked = stripGreeting(question);
  const query = prepareQuery(asked, request.history);
  const retrieved = query.searchText ? await retriever.search(bot.id, query.searchText, PASSAGES_TO_READ) : [];
  // The visitor's own documents lead: a question asked after an upload is most likely about it.
  const attached = query.searchText ? attachedPassages(request.attachments, query) : [];
  const passages = attached.length > 0 ? [...attached, ...retrieved] : retrieved;
  const chosen = chooseUnits(asked, request.history, query, passages);
  if (chosen.length === 0) {
    const text = bot.strict_mode ? phrases.dontKnow : `${phrases.dontKnow} ${phrases.invite}`;
    return { text, sources: [], kind: 'refusal' };
  }
  return { ...composeAnswer(chosen, phrases.leadIn), kind: 'answer' };
}

// "Where is the showroom and when is it open?": two questions joined by "and".
const TWO_QUESTIONS = /^(.{8,}?)\s*,?\s+and\s+((?:what|when|where|how|which|who|why|is|are|does|do|can|could|will)\b.{6,})$/i;

/** The sentences answering the question, or each of two joined questions (the first one leads). */
function chooseUnits(asked: string, history: ChatTurn[], query: PreparedQuery, passages: RetrievedPassage[]): ScoredUnit[] {
  const parts = query.followUp ? null : TWO_QUESTIONS.exec(asked);
  if (!parts) return selectUnits(scoreUnits(query.model, passages), topicWordsOf(query));
  const first = prepareQuery(parts[1]!, history);
  // The second question reads as a follow-up of the first ("… and when is it open?").
  const second = prepareQuery(parts[2]!, [...history, { role: 'user', content: parts[1]! }]);
  const a = selectUnits(scoreUnits(first.model, passages), topicWordsOf(first)).slice(0, 2);
  const b = selectUnits(scoreUnits(second.model, passages), topicWordsOf(second)).filter((u) => !a.some((x) => x.text === u.text));
  return [...a, ...b].slice(0, 3);
}

function topicWordsOf(query: PreparedQuery): number {
  return [...query.model.weights.values()].filter((w) => w >= TOPIC_WEIGHT).length;
}

/** Streams the text in groups of a few words, as a provider's tokens would arrive. */
function streamOf(result: LocalAnswer): AnswerStream {
  const pieces = result.text.match(/\s*\S+/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < pieces.length; i += WORDS_PER_CHUNK) chunks.push(pieces.slice(i, i + WORDS_PER_CHUNK).join(''));
  return {
    engine: LOCAL_ENGINE_NAME,
    chunks: (async function* () {
      yield* chunks;
    })(),
    sources: () => result.sources.map((s) => ({ ...s })),
  };
}
