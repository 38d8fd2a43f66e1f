/**
 * The knowledge job: every interval, re-crawls the URL sources that are due (and resumes any left
 * `processing` by an instance that stopped), then embeds passages that still lack a vector (those
 * stored before embeddings existed, or before a provider's embedding model was configured). Each
 * source is claimed with a lease in the database, so with several instances only one crawls it;
 * embedding twice is harmless (the second write is ignored).
 */
import type { FastifyBaseLogger } from 'fastify';
import { startRecurringJob, type RecurringJob } from '../../platform/recurring-job.ts';
import type { KnowledgeService } from './knowledge.service.ts';

export function startCrawlScheduler({ knowledge, intervalMs, log }: { knowledge: KnowledgeService; intervalMs: number; log?: FastifyBaseLogger }): RecurringJob {
  return startRecurringJob(
    'knowledge job',
    intervalMs,
    async () => {
      await knowledge.crawlDue();
      await knowledge.embedMissing();
    },
    log,
  );
}
