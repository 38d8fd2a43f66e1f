/**
 * Runs a buffer's flush off the request path: every `intervalMs`, on demand, and a last time on
 * close. Flushes never overlap, so a buffer can swap its contents out safely.
 */
import type { FastifyBaseLogger } from 'fastify';

export interface PeriodicFlush {
  /** Flushes now (after any flush already running) and resolves when done. */
  flushNow(): Promise<void>;
  /** Stops the timer and flushes what is left. */
  stop(): Promise<void>;
}

export function startPeriodicFlush(name: string, intervalMs: number, flush: () => Promise<void>, log?: FastifyBaseLogger): PeriodicFlush {
  let chain: Promise<void> = Promise.resolve();
  const run = (): Promise<void> => {
    chain = chain.then(flush).catch((err: unknown) => log?.error({ err }, `${name}: flush failed`));
    return chain;
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    flushNow: run,
    async stop() {
      clearInterval(timer);
      await run();
    },
  };
}
