/**
 * Per-key usage: API calls and chat messages, counted in memory on the request path and added to
 * the daily counters in batches; reports flush first, so they include every counted call.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import { startPeriodicFlush } from '../../platform/periodic-flush.ts';
import * as repo from './usage.repository.ts';

const DAY_MS = 86_400_000;

export interface UsageReport {
  key_id: string;
  days: number;
  totals: { messages: number; api_calls: number };
  daily: { date: string; messages: number; api_calls: number }[];
}

export type UsageService = ReturnType<typeof createUsageService>;

export function createUsageService({ db, clock, flushMs, log }: { db: Db; clock: Clock; flushMs: number; log?: FastifyBaseLogger }) {
  let pending = new Map<string, repo.UsageIncrement>();

  function count(keyId: string, botId: string, field: 'messages' | 'api_calls'): void {
    const day = isoAt(clock.now()).slice(0, 10);
    const slot = `${keyId}|${day}`;
    let increment = pending.get(slot);
    if (!increment) {
      increment = { key_id: keyId, bot_id: botId, day, messages: 0, api_calls: 0 };
      pending.set(slot, increment);
    }
    increment[field] += 1;
  }

  const flusher = startPeriodicFlush(
    'usage',
    flushMs,
    async () => {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      try {
        await repo.addUsage(db, [...batch.values()]);
      } catch (err) {
        // The counts go back, added to any counted meanwhile; the periodic flush retries.
        for (const [slot, increment] of batch) {
          const newer = pending.get(slot);
          if (newer) {
            newer.messages += increment.messages;
            newer.api_calls += increment.api_calls;
          } else {
            pending.set(slot, increment);
          }
        }
        throw err;
      }
    },
    log,
  );

  return {
    recordApiCall: (keyId: string, botId: string) => count(keyId, botId, 'api_calls'),
    recordMessage: (keyId: string, botId: string) => count(keyId, botId, 'messages'),

    /** The last `days` days (today included), newest first, with totals. */
    async report(keyId: string, days: number): Promise<UsageReport> {
      await flusher.flushNow();
      const today = Date.UTC(...utcDateParts(clock.now()));
      const dates = Array.from({ length: days }, (_, i) => new Date(today - i * DAY_MS).toISOString().slice(0, 10));
      const rows = await repo.usageSince(db, keyId, dates.at(-1)!);
      const byDay = new Map(rows.map((row) => [row.day, row]));
      const daily = dates.map((date) => ({
        date,
        messages: Number(byDay.get(date)?.messages ?? 0),
        api_calls: Number(byDay.get(date)?.api_calls ?? 0),
      }));
      const totals = daily.reduce((sum, d) => ({ messages: sum.messages + d.messages, api_calls: sum.api_calls + d.api_calls }), {
        messages: 0,
        api_calls: 0,
      });
      return { key_id: keyId, days, totals, daily };
    },

    flush: () => flusher.flushNow(),
    close: () => flusher.stop(),
  };
}

function utcDateParts(ms: number): [number, number, number] {
  const d = new Date(ms);
  return [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
}
