/**
 * The session sweeper: ends sessions idle for PARLEY_SESSION_IDLE_MINUTES. Each end is one
 * conditional update, so with several instances sweeping at once a session ends (and records
 * `session.ended`) exactly once.
 */
import type { FastifyBaseLogger } from 'fastify';
import { startRecurringJob, type RecurringJob } from '../../platform/recurring-job.ts';
import type { ConversationService } from './conversations.service.ts';

export function startSessionSweeper({ conversations, intervalMs, log }: { conversations: ConversationService; intervalMs: number; log?: FastifyBaseLogger }): RecurringJob {
  return startRecurringJob('session sweeper', intervalMs, () => conversations.endIdleSessions(), log);
}
