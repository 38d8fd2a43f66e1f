/**
 * Runs a write-behind buffer's flush off the request path: every `intervalMs`, on demand, and a last
 * time on close. Flushes never overlap, so a buffer can swap its contents out safely.
 *
 * Nothing buffered is lost while the process lives: a flush that fails must put its batch back
 * (ahead of anything newer, to keep the order), and it is retried with a back-off that doubles from
 * a quarter second up to ten seconds, so that a locked or unreachable database is not hammered.
 * Closing keeps retrying for a bounded time before it gives up and says how it failed.
 */
import type { FastifyBaseLogger } from 'fastify';

export interface PeriodicFlush {
  /** Flushes now, even while backing off (after any flush already running), and resolves when done. */
  flushNow(): Promise<void>;
  /** Asks for a flush soon (a full buffer); honours the back-off after a failure. */
  nudge(): void;
  /** Stops the timer and flushes what is left, retrying for a while if that fails. */
  stop(): Promise<void>;
}

const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 10_000;
/** How long closing keeps retrying a failing flush. */
const CLOSE_RETRY_BUDGET_MS = 15_000;

export function startPeriodicFlush(name: string, intervalMs: number, flush: () => Promise<void>, log?: FastifyBaseLogger): PeriodicFlush {
  let chain: Promise<void> = Promise.resolve();
  let failures = 0;
  let retryAt = 0;

  const retryDelay = () => Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));

  async function attempt(): Promise<void> {
    try {
      await flush();
      if (failures > 0) log?.info(`${name}: flush succeeded after ${failures} failed attempts`);
      failures = 0;
    } catch (err) {
      failures++;
      retryAt = Date.now() + retryDelay();
      log?.error({ err, failures }, `${name}: flush failed; the batch is kept and retried`);
    }
  }
  const run = (force: boolean): Promise<void> => {
    chain = chain.then(() => (force || Date.now() >= retryAt ? attempt() : undefined));
    return chain;
  };
  const timer = setInterval(() => void run(false), intervalMs);
  timer.unref();

  return {
    flushNow: () => run(true),
    nudge: () => void run(false),
    async stop() {
      clearInterval(timer);
      const giveUpAt = Date.now() + CLOSE_RETRY_BUDGET_MS;
      await run(true);
      while (failures > 0 && Date.now() < giveUpAt) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(retryDelay(), giveUpAt - Date.now())));
        await run(true);
      }
      if (failures > 0) log?.error(`${name}: the last flush failed at shutdown; what was buffered is lost`);
    },
  };
}
