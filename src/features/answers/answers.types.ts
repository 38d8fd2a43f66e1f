/**
 * The contract between retrieval, the answer engines (`parley-local` and the LLM providers) and the
 * chat layer that streams answers to visitors.
 */

/** One passage of a bot's knowledge, as retrieval returns it (best first). */
export interface RetrievedPassage {
  passageId: string;
  sourceId: string;
  /** The source's name (its title): what `done.sources[].title` shows. */
  sourceTitle: string;
  /** The source's URL, or '' for text and uploaded sources. */
  sourceUrl: string;
  /** Heading path inside the source, e.g. "Billing > Refunds" ('' when none). */
  heading: string;
  text: string;
  /** Higher is better; comparable only within one result list. */
  score: number;
}

/** How a search may go beyond the full-text index and the offline embeddings. */
export interface SearchOptions {
  /** Also rank by the configured provider's embedding model (a network call per search). */
  providerEmbeddings?: boolean;
  /** What the provider's embedding model embeds, when not the query: the question as written (the query may be a list of words). */
  meaningText?: string;
}

/**
 * Hybrid retrieval over one bot's passages: full-text ranking (FTS5 on SQLite, tsvector on
 * PostgreSQL) fused with nearest passages by embedding.
 */
export interface Retriever {
  search(botId: string, query: string, limit: number, options?: SearchOptions): Promise<RetrievedPassage[]>;
  /** False when the bot has no knowledge at all, so that no other search could find anything. */
  hasKnowledge?(botId: string): Promise<boolean>;
}

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** The bot settings an engine needs. */
export interface AnswerBot {
  id: string;
  name: string;
  welcome_message: string;
  selected_model: string;
  system_instructions: string;
  /** Forced reply language code, or '' to mirror the visitor. */
  response_language: string;
  strict_mode: boolean;
  lead_capture_enabled: boolean;
}

export interface AnswerRequest {
  bot: AnswerBot;
  /** The visitor's new message. */
  question: string;
  /** The session's earlier turns, oldest first (the new question not included). */
  history: ChatTurn[];
  /** Overrides the bot's response_language for this request ('' = mirror the visitor). */
  responseLanguage?: string;
  /** The visitor has seen the welcome message: a greeting is answered without repeating it. */
  welcomeShown?: boolean;
  /** Files attached in this session, oldest first: documents' text and images' bytes, for engines that can use them. */
  attachments?: { name: string; mimeType: string; text?: string; imageUrl?: string; image?: Uint8Array }[];
  /** Aborts a provider call (the engine must stop and throw). */
  signal?: AbortSignal;
  /** Lead capture for this turn: the contact details still missing (asked one at a time), and the booking link. */
  leadCapture?: { missing: string[]; meetingUrl?: string };
}

export interface AnswerSource {
  title: string;
  url: string;
}

/**
 * An answer being produced: text chunks as they come, then the sources used. Iterating `chunks`
 * throws an `AnswerError` when the engine fails; nothing partial is a complete answer then.
 */
export interface AnswerStream {
  chunks: AsyncIterable<string>;
  /** Resolves once `chunks` is exhausted. */
  sources(): AnswerSource[];
  /** The engine that answered, e.g. 'parley-local' or 'openai:gpt-4o-mini'. */
  engine: string;
  /** What kind of reply it was, when the engine knows (parley-local does). */
  outcome?: 'answer' | 'refusal' | 'small_talk';
  /** The language code the reply is in, when the engine chose it (parley-local does). */
  language?: string;
}

export interface AnswerEngine {
  answer(request: AnswerRequest): Promise<AnswerStream>;
}

/** A provider failure (bad key, rate limit, time-out, broken stream): the chat layer reports it as 502 / `provider_error`. */
export class AnswerError extends Error {
  /** The session the visitor's message was stored in before the answer failed (set by the chat service). */
  sessionKey?: string;

  constructor(
    message: string,
    readonly code: 'provider_error' | 'internal_error' = 'provider_error',
  ) {
    super(message);
    this.name = 'AnswerError';
  }
}
