/**
 * One chat turn: store the visitor's message (quota, session, events), then unless an operator
 * holds the conversation, let the bot's engine answer with the session's history and attachments,
 * pass its text on as it comes, and store the answer once it is whole.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { AnswerError, type AnswerEngine, type AnswerRequest, type AnswerSource } from '../answers/answers.types.ts';
import type { Bot } from '../bots/bots.schemas.ts';
import type { ConversationService, StoredMessage } from '../conversations/conversations.service.ts';
import type { LiveSessions } from '../conversations/live-sessions.ts';
import type { UsageService } from '../usage/usage.service.ts';

/** Shown to the visitor when an operator holds the conversation. */
export const PAUSED_MESSAGE = 'A member of our team has taken over this conversation and will reply here.';

export interface ChatRequest {
  bot: Bot;
  text: string;
  sessionKey?: string;
  visitorId?: string;
  visitorTimezone?: string;
  metadata?: Record<string, unknown>;
  /** Overrides the bot's response_language ('' = mirror the visitor). */
  responseLanguage?: string;
  /** The API key that sent it, for its usage counters (null for the widget). */
  keyId: string | null;
}

export type ChatResult =
  | { paused: true; sessionKey: string }
  | { paused: false; sessionKey: string; messageId: string; reply: string; sources: AnswerSource[] };

/** The documents and images of a session, as the engines take them. */
export type AttachmentLoader = (sessionId: string) => Promise<NonNullable<AnswerRequest['attachments']>>;

export interface ChatServiceDeps {
  conversations: ConversationService;
  engine: AnswerEngine;
  usage: UsageService;
  attachmentsFor?: AttachmentLoader;
  /** Where stored messages are announced for the operators' live inbox. */
  live?: LiveSessions;
  log: FastifyBaseLogger;
}

export type ChatService = ReturnType<typeof createChatService>;

export function createChatService({ conversations, engine, usage, attachmentsFor, live, log }: ChatServiceDeps) {
  // Best-effort: the stored message is the record, so a failed announcement only costs liveness.
  function announce(botId: string, sessionKey: string, message: StoredMessage): void {
    live?.publish({ type: 'message', botId, sessionKey, message }).catch((err: unknown) => log.warn({ err }, 'could not announce a chat message'));
  }

  /** Produces the answer, handing each piece to `onToken`; throws AnswerError when the engine fails (the user message stays stored). */
  async function chat(request: ChatRequest, onToken?: (token: string) => void): Promise<ChatResult> {
    const { bot } = request;
    const turn = await conversations.addUserMessage({
      bot,
      text: request.text,
      sessionKey: request.sessionKey,
      visitorId: request.visitorId,
      visitorTimezone: request.visitorTimezone,
      metadata: request.metadata,
    });
    if (request.keyId) usage.recordMessage(request.keyId, bot.id);
    announce(bot.id, turn.sessionKey, { id: turn.messageId, role: 'user', author: 'visitor', content: request.text, feedback_rating: null, created_at: turn.createdAt });
    if (turn.paused) return { paused: true, sessionKey: turn.sessionKey };

    const started = performance.now();
    const parts: string[] = [];
    let sources: AnswerSource[];
    let engineName: string;
    try {
      // Uploads go to an existing session, so a session this message started has none.
      const attachments = attachmentsFor && !turn.newSession ? await attachmentsFor(turn.sessionId) : [];
      const stream = await engine.answer({
        bot,
        question: request.text,
        history: turn.history,
        responseLanguage: request.responseLanguage,
        attachments,
      });
      engineName = stream.engine;
      for await (const chunk of stream.chunks) {
        parts.push(chunk);
        onToken?.(chunk);
      }
      sources = stream.sources();
    } catch (err) {
      if (err instanceof AnswerError) throw err;
      log.error({ err, botId: bot.id }, 'answer engine failed');
      throw new AnswerError('The answer could not be generated', 'internal_error');
    }
    const reply = parts.join('');
    const message = await conversations.addAssistantMessage(bot, turn, {
      content: reply,
      author: 'bot',
      latencyMs: performance.now() - started,
      engine: engineName,
      sources,
    });
    announce(bot.id, turn.sessionKey, message);
    return { paused: false, sessionKey: turn.sessionKey, messageId: message.id, reply, sources };
  }

  return { chat };
}
