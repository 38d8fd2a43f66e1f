/**
 * The operators' live inbox: the bot's sessions with their latest message, human takeover of one
 * session or pause of the whole bot, operator replies, and the live activity that tells visitors'
 * widgets (and other operators) about each change, across instances when the bus is Redis.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { BotService } from '../bots/bots.service.ts';
import { SESSION_NOT_FOUND, type ConversationBot, type ConversationService, type StoredMessage } from '../conversations/conversations.service.ts';
import type { LiveSessions, SessionActivity } from '../conversations/live-sessions.ts';
import type { InboxAttachment, InboxSession } from './inbox.schemas.ts';
import * as repo from './inbox.repository.ts';

export interface InboxServiceDeps {
  db: Db;
  clock: Clock;
  conversations: ConversationService;
  live: LiveSessions;
  bots: BotService;
  /** Removes a cleared session's stored files, as `DELETE /api/v1/conversations` does. */
  onSessionCleared?: (botId: string, sessionId: string) => Promise<void>;
  /** A session's uploads with signed links (the media feature's); none without it. */
  attachmentsOf?: (botId: string, sessionId: string) => Promise<InboxAttachment[]>;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

export type InboxService = ReturnType<typeof createInboxService>;

export function createInboxService({ db, clock, conversations, live, bots, onSessionCleared, attachmentsOf, log }: InboxServiceDeps) {
  /** The stored messages are the record: a lost notification must not fail the operator's action. */
  async function announce(activity: SessionActivity): Promise<void> {
    await live.publish(activity).catch((err: unknown) => log?.warn({ err }, 'live inbox activity not published'));
  }

  function sessionView(row: repo.InboxSessionRow, last: repo.LastMessageRow | undefined, now: number): InboxSession {
    // A session idle past the limit shows as ended even before the sweeper ends it.
    const idleEnd = conversations.idleEndOf(row);
    const ended = row.status === 'ended' || idleEnd < now;
    return {
      session_id: row.session_key,
      visitor_id: row.visitor_id,
      visitor_timezone: row.visitor_timezone,
      metadata: row.metadata ? (JSON.parse(row.metadata) as Record<string, unknown>) : null,
      status: ended ? 'ended' : 'active',
      taken_over: Number(row.taken_over) === 1,
      message_count: Number(row.message_count),
      started_at: row.started_at,
      last_activity_at: row.last_activity_at,
      ended_at: row.ended_at ?? (ended ? isoAt(idleEnd) : null),
      last_message: last ? { role: last.role, author: last.author, content: last.content, created_at: last.created_at } : null,
    };
  }

  async function viewOf(botId: string, row: repo.InboxSessionRow): Promise<InboxSession> {
    const last = await repo.lastMessages(db, botId, [row.id]);
    return sessionView(row, last.get(row.id), clock.now());
  }

  async function setTakenOver(bot: ConversationBot, sessionKey: string, takenOver: boolean): Promise<InboxSession> {
    const session = await conversations.getSession(bot.id, sessionKey);
    if (!(await repo.setTakenOver(db, bot.id, session.id, takenOver))) throw new NotFoundError(SESSION_NOT_FOUND);
    await announce({ type: 'status', botId: bot.id, sessionKey, takenOver });
    return viewOf(bot.id, { ...session, taken_over: takenOver ? 1 : 0 });
  }

  return {
    /** One page of the bot's sessions, most recent activity first, with the number matching the filter. */
    async list(botId: string, query: { status?: 'active' | 'ended'; limit: number; offset: number }) {
      const now = clock.now();
      const filter = { status: query.status, activeSince: conversations.idleCutoff(now) };
      const [rows, total] = await Promise.all([repo.listSessions(db, botId, filter, query), repo.countSessions(db, botId, filter)]);
      const last = await repo.lastMessages(db, botId, rows.map((r) => r.id));
      return { sessions: rows.map((row) => sessionView(row, last.get(row.id), now)), total };
    },

    /** One session of the bot with all its messages and the visitor's uploads, oldest first. */
    async get(botId: string, sessionKey: string): Promise<InboxSession & { messages: StoredMessage[]; attachments: InboxAttachment[] }> {
      const session = await conversations.getSession(botId, sessionKey);
      const [messages, attachments] = await Promise.all([conversations.messagesOf(session.id), attachmentsOf ? attachmentsOf(botId, session.id) : []]);
      const last = messages.at(-1);
      const view = sessionView(session, last && { session_id: session.id, ...last }, clock.now());
      return { ...view, messages, attachments };
    },

    /** An operator takes the session over: the bot stops answering it until it is released. */
    takeOver: (bot: ConversationBot, sessionKey: string) => setTakenOver(bot, sessionKey, true),

    /** Hands the session back to the bot. */
    release: (bot: ConversationBot, sessionKey: string) => setTakenOver(bot, sessionKey, false),

    /**
     * Stores an operator's reply (role assistant, author operator) and sends it to the visitor's
     * live stream. Replying takes the session over first, so the bot does not answer alongside.
     */
    async sendOperatorMessage(bot: ConversationBot, sessionKey: string, content: string): Promise<StoredMessage> {
      const session = await conversations.getSession(bot.id, sessionKey);
      if (session.taken_over !== 1) {
        await repo.setTakenOver(db, bot.id, session.id, true);
        await announce({ type: 'status', botId: bot.id, sessionKey, takenOver: true });
      }
      const message = await conversations.addAssistantMessage(bot, { sessionId: session.id, sessionKey }, { content, author: 'operator', latencyMs: 0 });
      await announce({ type: 'message', botId: bot.id, sessionKey, message });
      return message;
    },

    /** Pauses or resumes the whole bot (every instance's bot cache is invalidated) and tells live streams. */
    async setPaused(accountId: string, botId: string, paused: boolean): Promise<{ bot_id: string; paused: boolean }> {
      const bot = await bots.update(accountId, botId, { paused });
      await announce({ type: 'status', botId: bot.id, sessionKey: null, takenOver: bot.paused });
      return { bot_id: bot.id, paused: bot.paused };
    },

    /** Deletes the session with its messages and uploads, as `DELETE /api/v1/conversations/{session_id}` does. */
    async remove(botId: string, sessionKey: string): Promise<void> {
      const { sessionId } = await conversations.clear(botId, sessionKey);
      await onSessionCleared?.(botId, sessionId);
    },

    /** Calls `listener` with all of the bot's live activity; returns the unsubscribe function. */
    watch: (botId: string, listener: (activity: SessionActivity) => void) => live.subscribe(botId, null, listener),
  };
}
