/**
 * Retrieval for a visitor's question, the same for every answer engine: the words `parley-local`
 * reads in it (function words aside, help-desk synonyms and translations added, the turn a
 * follow-up leans on), and, when an English question meets knowledge written in another language, a
 * second search with its words' translations.
 */
import type { ChatTurn, RetrievedPassage, Retriever, SearchOptions } from './answers.types.ts';
import { detectLanguage } from './local/language.ts';
import type { PhraseLanguage } from './local/phrases.ts';
import { FOREIGN_LANGUAGES } from './local/lexicon.ts';
import { prepareQuery, type PreparedQuery } from './local/query.ts';
import { stripGreeting } from './local/small-talk.ts';
import { translatedSearchWords } from './local/text.ts';

/** The question as searched, the passages found, and the language they are written in. */
export interface QuestionRetrieval {
  query: PreparedQuery;
  retrieved: RetrievedPassage[];
  knowledge: PhraseLanguage | null;
}

/** Searches a bot's knowledge for a question (`written` in that language, when clear). */
export async function retrieveForQuestion(
  retriever: Retriever,
  botId: string,
  asked: string,
  history: ChatTurn[],
  written: PhraseLanguage | undefined,
  limit: number,
  options?: SearchOptions,
): Promise<QuestionRetrieval> {
  const query = prepareQuery(asked, history, 'en', written);
  if (!query.searchText) return { query, retrieved: [], knowledge: null };
  let retrieved = await retriever.search(botId, query.searchText, limit, options);
  let knowledge = knowledgeLanguage(retrieved);
  // Found nothing: searched again unless the bot has no knowledge at all (then the five
  // translations and the second search would be work for nothing).
  const searchAgain =
    written === 'en' && (retrieved.length > 0 ? knowledge !== null && knowledge !== 'en' : ((await retriever.hasKnowledge?.(botId)) ?? true));
  if (searchAgain) {
    // An English question and knowledge in another language: searched again with its words'
    // translations (the first search found only the names and cognates they share, or nothing:
    // then in each of the five languages, the usual translation only).
    const translations = knowledge && knowledge !== 'en' ? translatedSearchWords(asked, knowledge) : FOREIGN_LANGUAGES.flatMap((l) => translatedSearchWords(asked, l, 1));
    if (translations.length > 0) {
      retrieved = await retriever.search(botId, `${query.searchText} ${translations.join(' ')}`, limit, options);
      knowledge = knowledgeLanguage(retrieved) ?? knowledge;
    }
  }
  return { query, retrieved, knowledge };
}

/**
 * The passages for a visitor's message as an engine retrieves them (`retrieveForQuestion`), for the
 * provider engine and the dashboard's search preview: by the message as written when it holds no
 * word worth searching ("What is it?"). The provider's embeddings, when asked for, embed it as written.
 */
export async function searchForQuestion(retriever: Retriever, botId: string, question: string, history: ChatTurn[], limit: number, options: SearchOptions = {}): Promise<RetrievedPassage[]> {
  const asked = stripGreeting(question.trim());
  const { query, retrieved } = await retrieveForQuestion(retriever, botId, asked, history, detectLanguage(asked) ?? undefined, limit, { ...options, meaningText: question });
  return query.searchText ? retrieved : retriever.search(botId, question, limit, options);
}

// Enough text to tell a language by (reading whole passages costs milliseconds on every question).
const KNOWLEDGE_SAMPLE_CHARS = 600;

/** The language the retrieved knowledge is written in, read from the start of its first passages. */
export function knowledgeLanguage(passages: RetrievedPassage[]): PhraseLanguage | null {
  if (passages.length === 0) return null;
  return detectLanguage(passages.slice(0, 3).map((p) => p.text.slice(0, KNOWLEDGE_SAMPLE_CHARS / 3)).join('\n'));
}
