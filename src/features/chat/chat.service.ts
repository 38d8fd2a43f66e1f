/**
 * One chat turn: store the visitor's message (quota, session, events), then unless an operator
 * holds the conversation, let the bot's engine answer with the session's history and attachments,
 * pass its text on as it comes, and store the answer once it is whole.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { AnswerError, type AnswerEngine, type AnswerRequest, type AnswerSource } from '../answers/answers.types.ts';
import type { Bot } from '../bots/bots.schemas.ts';
import type { ConversationService, StoredMessage, UserTurn } from '../conversations/conversations.service.ts';
import type { LiveSessions } from '../conversations/live-sessions.ts';
import type { UsageService } from '../usage/usage.service.ts';
import type { LeadService, LeadTurn } from '../leads/leads.service.ts';
import { LOCAL_ENGINE_NAME } from '../answers/local/local-engine.ts';
import { chooseLanguage } from '../answers/local/language.ts';

/** Shown to the visitor when an operator holds the conversation. */
export const PAUSED_MESSAGE = 'A member of our team has taken over this conversation and will reply here.';

export interface ChatRequest {
  bot: Bot;
  text: string;
  sessionKey?: string;
  visitorId?: string;
  /** Sent by the visitor themself (widget access): the session must be theirs. */
  asVisitor?: boolean;
  visitorTimezone?: string;
  metadata?: Record<string, unknown>;
  /** Overrides the bot's response_language ('' = mirror the visitor). */
  responseLanguage?: string;
  /** The API key that sent it, for its usage counters (null for the widget). */
  keyId: string | null;
  /** The visitor has seen the bot's welcome message (the widget shows it first). */
  welcomeShown?: boolean;
}

export type ChatResult =
  | { paused: true; sessionKey: string }
  | {
      paused: false;
      sessionKey: string;
      messageId: string;
      reply: string;
      sources: AnswerSource[];
      /** The lead fields still missing when this answer asked the visitor for one (the widget then offers its form). */
      leadFieldsAsked?: string[];
    };

/** The documents and images of a session, as the engines take them. */
export type AttachmentLoader = (sessionId: string) => Promise<NonNullable<AnswerRequest['attachments']>>;

export interface ChatServiceDeps {
  conversations: ConversationService;
  engine: AnswerEngine;
  usage: UsageService;
  attachmentsFor?: AttachmentLoader;
  /** Where stored messages are announced for the operators' live inbox. */
  live?: LiveSessions;
  /** Lead capture: reads each visitor message, and says what parley-local asks next. */
  leads?: LeadService;
  log: FastifyBaseLogger;
}

export type ChatService = ReturnType<typeof createChatService>;

export function createChatService({ conversations, engine, usage, attachmentsFor, live, leads, log }: ChatServiceDeps) {
  // Best-effort: the stored message is the record, so a failed announcement only costs liveness.
  function announce(botId: string, sessionKey: string, message: StoredMessage): void {
    live?.publish({ type: 'message', botId, sessionKey, message }).catch((err: unknown) => log.warn({ err }, 'could not announce a chat message'));
  }

  /** The engine's answer, each piece handed to `emit`, then what parley-local asks for a lead. */
  async function answer(request: ChatRequest, turn: UserTurn, lead: LeadTurn | undefined, emit: (piece: string) => void) {
    const { bot } = request;
    try {
      // Uploads go to an existing session, so a session this message started has none.
      const attachments = attachmentsFor && !turn.newSession ? await attachmentsFor(turn.sessionId) : [];
      const stream = await engine.answer({
        bot,
        question: request.text,
        history: turn.history,
        responseLanguage: request.responseLanguage,
        welcomeShown: request.welcomeShown,
        attachments,
        ...(lead && {
          leadCapture: {
            missing: lead.state.declined ? [] : lead.missing,
            ...(bot.calendar_scheduling_enabled && bot.meeting_url && { meetingUrl: bot.meeting_url }),
          },
        }),
      });
      let written = false;
      for await (const chunk of stream.chunks) {
        emit(chunk);
        written = true;
      }
      // parley-local asks for contact details itself; a provider was told to in its prompt.
      const addition = lead && stream.engine === LOCAL_ENGINE_NAME ? await leads!.followUp(bot, { rowId: turn.sessionId }, lead, stream) : null;
      if (addition) emit(written ? `\n\n${addition}` : addition);
      return { sources: stream.sources(), engineName: stream.engine, unanswered: stream.outcome === 'refusal' };
    } catch (err) {
      // Counted for the scorecard's reliability; a failure to count must not hide the engine's error.
      await conversations.recordFailedAnswer(bot.id).catch((countErr: unknown) => log.warn({ err: countErr }, 'could not count a failed answer'));
      if (err instanceof AnswerError) throw err;
      log.error({ err, botId: bot.id }, 'answer engine failed');
      throw new AnswerError('The answer could not be generated', 'internal_error');
    }
  }

  /** Produces the answer, handing each piece to `onToken`; throws AnswerError when the engine fails (the user message stays stored). */
  async function chat(request: ChatRequest, onToken?: (token: string) => void): Promise<ChatResult> {
    const { bot } = request;
    const turn = await conversations.addUserMessage({
      bot,
      text: request.text,
      sessionKey: request.sessionKey,
      visitorId: request.visitorId,
      asVisitor: request.asVisitor,
      visitorTimezone: request.visitorTimezone,
      metadata: request.metadata,
    });
    if (request.keyId) usage.recordMessage(request.keyId, bot.id);
    announce(bot.id, turn.sessionKey, { id: turn.messageId, role: 'user', author: 'visitor', content: request.text, feedback_rating: null, created_at: turn.createdAt });
    const session = { rowId: turn.sessionId, key: turn.sessionKey };
    // Details are read even while an operator holds the conversation.
    const lead: LeadTurn | undefined =
      leads && (bot.lead_capture_enabled || bot.calendar_scheduling_enabled) ? await leads.readMessage(bot, session, request.text) : undefined;
    if (turn.paused) return { paused: true, sessionKey: turn.sessionKey };

    const started = performance.now();
    const parts: string[] = [];
    const emit = (piece: string) => {
      parts.push(piece);
      onToken?.(piece);
    };
    // A message that only gives the details parley-local asked for is thanked, not searched for.
    const acknowledgement =
      lead?.onlyDetails && bot.selected_model === LOCAL_ENGINE_NAME
        ? await leads!.followUp(bot, session, lead, { language: chooseLanguage({ bot, question: request.text, history: turn.history, responseLanguage: request.responseLanguage }) })
        : null;
    if (acknowledgement) emit(acknowledgement);
    const { sources, engineName, unanswered } = acknowledgement
      ? { sources: [], engineName: LOCAL_ENGINE_NAME, unanswered: false }
      : await answer(request, turn, lead, emit).catch((err: unknown) => {
          // The message is stored: the caller can still tell the visitor which session holds it.
          if (err instanceof AnswerError) err.sessionKey = turn.sessionKey;
          throw err;
        });
    const reply = parts.join('');
    const message = await conversations.addAssistantMessage(bot, turn, {
      content: reply,
      author: 'bot',
      latencyMs: performance.now() - started,
      engine: engineName,
      sources,
      unanswered,
    });
    announce(bot.id, turn.sessionKey, message);
    // followUp records the field it asked for in the lead state it was given.
    const leadFieldsAsked = lead?.state.asked && !lead.state.declined ? lead.missing : undefined;
    return { paused: false, sessionKey: turn.sessionKey, messageId: message.id, reply, sources, ...(leadFieldsAsked && { leadFieldsAsked }) };
  }

  return { chat };
}
