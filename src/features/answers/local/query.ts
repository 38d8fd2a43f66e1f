/**
 * The question as `parley-local` searches and scores it: its own terms, plus the previous user
 * turn's at a lower weight when the question is a follow-up ("and how much is it?"), and the
 * assistant's reply to it lower still.
 */
import type { ChatTurn } from '../answers.types.ts';
import type { QueryModel } from './scoring.ts';
import { isRefusalText, type PhraseLanguage } from './phrases.ts';
import { contentTerms, searchWords, weightedTerms, words, type KnownTerms } from './text.ts';

/** What to send to retrieval and how to score what comes back. */
export interface PreparedQuery {
  model: QueryModel;
  searchText: string;
  followUp: boolean;
}

const PREVIOUS_TURN_WEIGHT = 0.5;
const PREVIOUS_ANSWER_WEIGHT = 0.25;
// A long reply would crowd the question out of the search.
const ANSWER_SEARCH_WORDS = 8;
const MAX_SEARCH_WORDS = 24;

const FOLLOW_UP_START =
  /^(?:and|also|plus|or|but|what about|how about|what if|same|y|e|et|und|oder|ou|o|pero|mais|aber|ma|mas|qu[ée] tal|et pour|und f[üu]r|e per|e para|y para)\b/i;
const ANAPHORA = /\b(?:it|its|that|this|they|them|those|these|there|one|ones|eso|esto|ello|[çc]a|cela|celui|celle|dies|davon|daf[üu]r|isso|isto|questo|quello|quella)\b/i;

/** True when the question leans on the previous turn rather than standing alone. */
export function isFollowUp(question: string, history: ChatTurn[]): boolean {
  if (!previousUserTurn(history)) return false;
  const count = words(question).length;
  const content = contentTerms(question).length;
  if (content === 0) return true;
  if (FOLLOW_UP_START.test(question.trim())) return count <= 14;
  if (ANAPHORA.test(question) && count <= 8) return true;
  return content <= 1 && count <= 6;
}

/**
 * Scales the borrowed terms down so that together they weigh no more than the new message's own:
 * "And if I'm in Canada?" must not lose to the longer question before it.
 */
function balanceContext(weights: Map<string, number>, focus: Set<string>): void {
  let own = 0;
  let borrowed = 0;
  for (const [term, weight] of weights) {
    if (focus.has(term)) own += weight;
    else borrowed += weight;
  }
  if (own === 0 || borrowed <= own) return;
  const scale = own / borrowed;
  for (const [term, weight] of weights) if (!focus.has(term)) weights.set(term, weight * scale);
}

/** The last thing the visitor asked before this question, if anything. */
export function previousUserTurn(history: ChatTurn[]): string | undefined {
  return lastTurn(history, 'user');
}

/** The assistant's last reply, unless it was a refusal (whose words say nothing of the topic). */
function previousAssistantTurn(history: ChatTurn[]): string | undefined {
  const reply = lastTurn(history, 'assistant');
  return reply && !isRefusalText(reply) ? reply : undefined;
}

function lastTurn(history: ChatTurn[], role: ChatTurn['role']): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i]!;
    if (turn.role === role && turn.content.trim()) return turn.content;
  }
  return undefined;
}

/**
 * Builds the search text and the weighted terms of a question (and of the turn it follows), its
 * terms stemmed in `language` (the language of the knowledge it is scored against); `written`, the
 * language the visitor writes in when it is clear, reads their words as that language's concepts
 * ("essai" as a trial, not as an English "essay"); `known`, the terms of the knowledge retrieved for
 * it, chooses among the meanings of such a word read in English.
 */
export function prepareQuery(question: string, history: ChatTurn[], language: PhraseLanguage = 'en', written?: PhraseLanguage, known?: KnownTerms): PreparedQuery {
  const followUp = isFollowUp(question, history);
  const weights = weightedTerms(question, language, written, known);
  const focus = new Set(weights.keys());
  const search = searchWords(question, written);
  let kindText = question;
  if (followUp) {
    const previous = previousUserTurn(history)!;
    // "and expedited?" after "how long does standard shipping take?" still asks how long.
    kindText = `${question}\n${previous}`;
    for (const [term, weight] of weightedTerms(previous, language, written, known)) {
      if (!weights.has(term)) weights.set(term, weight * PREVIOUS_TURN_WEIGHT);
    }
    for (const word of searchWords(previous, written)) if (!search.includes(word)) search.push(word);
    // What was answered names the topic a follow-up leans on ("the support team" for "what hours are
    // they around?"), more weakly than what was asked.
    const answered = previousAssistantTurn(history);
    if (answered) {
      for (const [term, weight] of weightedTerms(answered, language)) {
        if (!weights.has(term)) weights.set(term, weight * PREVIOUS_ANSWER_WEIGHT);
      }
      for (const word of searchWords(answered).slice(0, ANSWER_SEARCH_WORDS)) if (!search.includes(word)) search.push(word);
    }
  }
  if (followUp) balanceContext(weights, focus);
  return {
    model: { weights, focus, sequence: contentTerms(question, language, written, known), question: kindText, language, written },
    searchText: search.slice(0, MAX_SEARCH_WORDS).join(' '),
    followUp,
  };
}
