/**
 * The crawl scheduler: every interval, re-crawls the URL sources that are due (and resumes any left
 * `processing` by an instance that stopped). Each source is claimed with a lease in the database,
 * so with several instances only one crawls it.
 */
import type { FastifyBaseLogger } from 'fastify';
import { startRecurringJob, type RecurringJob } from '../../platform/recurring-job.ts';
import type { KnowledgeService } from './knowledge.service.ts';

export function startCrawlScheduler({ knowledge, intervalMs, log }: { knowledge: KnowledgeService; intervalMs: number; log?: FastifyBaseLogger }): RecurringJob {
  return startRecurringJob('crawl scheduler', intervalMs, () => knowledge.crawlDue(), log);
}
