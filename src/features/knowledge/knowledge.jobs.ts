/**
 * The crawl scheduler: every interval, re-crawls the URL sources that are due (and resumes any left
 * `processing` by an instance that stopped). Each source is claimed with a lease in the database,
 * so with several instances only one crawls it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { KnowledgeService } from './knowledge.service.ts';

export interface CrawlScheduler {
  stop(): Promise<void>;
}

export function startCrawlScheduler({ knowledge, intervalMs, log }: { knowledge: KnowledgeService; intervalMs: number; log?: FastifyBaseLogger }): CrawlScheduler {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => knowledge.crawlDue()).catch((err: unknown) => log?.error({ err }, 'crawl scheduler failed'));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
