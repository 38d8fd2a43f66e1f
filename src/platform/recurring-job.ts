/**
 * A background job run every `intervalMs` (the crawl scheduler, the session sweeper): runs never
 * overlap, a failure is logged and the next run goes ahead, and `stop` waits for the run in flight.
 */
import type { FastifyBaseLogger } from 'fastify';

export interface RecurringJob {
  stop(): Promise<void>;
}

export function startRecurringJob(name: string, intervalMs: number, run: () => Promise<unknown>, log?: FastifyBaseLogger): RecurringJob {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(run).catch((err: unknown) => log?.error({ err }, `${name} failed`));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
