/**
 * `parley-local`: the embedded answer engine. No network, no model, deterministic: it answers small
 * talk, otherwise quotes the knowledge sentences that best answer the question (verbatim, with
 * their sources), and says it does not know when nothing answers enough of it.
 */
import type { AnswerEngine, AnswerRequest, AnswerSource, AnswerStream, Retriever } from '../answers.types.ts';
import { chooseLanguage } from './language.ts';
import { PHRASES } from './phrases.ts';
import { prepareQuery } from './query.ts';
import { scoreUnits, TOPIC_WEIGHT } from './scoring.ts';
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
  const query = prepareQuery(stripGreeting(question), request.history);
  const passages = query.searchText ? await retriever.search(bot.id, query.searchText, PASSAGES_TO_READ) : [];
  const topicWords = [...query.model.weights.values()].filter((w) => w >= TOPIC_WEIGHT).length;
  const chosen = selectUnits(scoreUnits(query.model, passages), topicWords);
  if (chosen.length === 0) {
    const text = bot.strict_mode ? phrases.dontKnow : `${phrases.dontKnow} ${phrases.invite}`;
    return { text, sources: [], kind: 'refusal' };
  }
  return { ...composeAnswer(chosen, phrases.leadIn), kind: 'answer' };
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
