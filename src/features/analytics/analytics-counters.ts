/**
 * A bot's activity counted per hour (UTC), kept in step with the stored rows: each write that adds
 * or removes a message, a session visit, a lead or a rating adds its delta here in the same
 * transaction. Reports then sum a few hundred rows instead of counting a million messages.
 *
 * A window that starts inside an hour reads that hour's part from the stored rows themselves (see
 * analytics.service.ts), so windows stay exact to the millisecond.
 */
import { sql } from 'kysely';
import { cachedQuery } from '../../db/cached-query.ts';
import type { Db } from '../../db/database.ts';
import type { AnalyticsHourlyTable } from '../../db/schema.ts';

/** Answers slower than this count against reliability (documented in the README's scorecard section). */
export const LATENCY_TARGET_MS = 3000;

export const COUNTER_FIELDS = [
  'user_messages',
  'bot_messages',
  'sessions',
  'multi_turn_sessions',
  'leads',
  'bot_answers',
  'unanswered_answers',
  'grounded_answers',
  'failed_answers',
  'slow_answers',
  'feedback_up',
  'feedback_down',
] as const satisfies ReadonlyArray<keyof AnalyticsHourlyTable>;

export type CounterField = (typeof COUNTER_FIELDS)[number];
export type Counts = Record<CounterField, number>;
export type CountDeltas = Partial<Counts>;

export const ZERO_COUNTS: Readonly<Counts> = Object.freeze(Object.fromEntries(COUNTER_FIELDS.map((f) => [f, 0])) as Counts);

/** The hour bucket of an ISO 8601 UTC time: `YYYY-MM-DDTHH`. */
export function hourOf(iso: string): string {
  return iso.slice(0, 13);
}

// After the last hour of year 9999 comes "+010000-…", which sorts before every stored time: this
// sorts after them all, as the next hour does.
const AFTER_LAST_HOUR = '9999-12-31T24:00:00.000Z';

/** The start of the hour after the one `iso` falls in, as ISO 8601. */
export function nextHourStart(iso: string): string {
  const next = new Date(Date.parse(`${hourOf(iso)}:00:00.000Z`) + 3_600_000).toISOString();
  return next.startsWith('+') ? AFTER_LAST_HOUR : next;
}

/** What one stored message adds to its hour (negate it for a removal). */
export interface CountedMessage {
  role: 'user' | 'assistant';
  author: 'visitor' | 'bot' | 'operator';
  latency_ms: number | null;
  sources: string | null;
  unanswered?: number | null;
  feedback_rating: 'up' | 'down' | null;
}

export function messageDeltas(message: CountedMessage, sign: 1 | -1 = 1): CountDeltas {
  if (message.role === 'user') return { user_messages: sign };
  const deltas: CountDeltas = { bot_messages: sign };
  if (message.feedback_rating) deltas[message.feedback_rating === 'up' ? 'feedback_up' : 'feedback_down'] = sign;
  // Operators' replies are messages, but only the bot's own answers are judged.
  if (message.author !== 'bot') return deltas;
  deltas.bot_answers = sign;
  if (message.unanswered === 1) deltas.unanswered_answers = sign;
  if (message.sources && message.sources !== '[]') deltas.grounded_answers = sign;
  if ((message.latency_ms ?? 0) > LATENCY_TARGET_MS) deltas.slow_answers = sign;
  return deltas;
}

type CountsUpsert = { bot_id: string; hour: string } & CountDeltas;

// Compiled once per set of counted fields (see cached-query.ts): the upsert of every chat turn.
const upsertCounts = cachedQuery((db, p: CountsUpsert) => {
  const fields = COUNTER_FIELDS.filter((f) => f in p);
  return db
    .insertInto('analytics_hourly')
    .values({ ...ZERO_COUNTS, ...p })
    .onConflict((oc) => oc.columns(['bot_id', 'hour']).doUpdateSet(Object.fromEntries(fields.map((f) => [f, sql`analytics_hourly.${sql.ref(f)} + ${p[f]!}`]))));
});

/** Adds deltas to one bot hour. Call inside the transaction that writes the rows they count. */
export async function addCounts(trx: Db, botId: string, hour: string, deltas: CountDeltas): Promise<void> {
  const params: CountsUpsert = { bot_id: botId, hour };
  let any = false;
  for (const f of COUNTER_FIELDS) {
    if (!deltas[f]) continue;
    params[f] = deltas[f];
    any = true;
  }
  if (any) await upsertCounts(trx, params);
}

/** Adds several hours' deltas, one statement per hour. */
export async function addCountsByHour(trx: Db, botId: string, byHour: Map<string, CountDeltas>): Promise<void> {
  for (const [hour, deltas] of byHour) await addCounts(trx, botId, hour, deltas);
}

/** Sums deltas into a per-hour map (for removing many messages at once). */
export function mergeInto(byHour: Map<string, CountDeltas>, hour: string, deltas: CountDeltas): void {
  const into = byHour.get(hour) ?? {};
  for (const f of COUNTER_FIELDS) if (deltas[f]) into[f] = (into[f] ?? 0) + deltas[f]!;
  byHour.set(hour, into);
}

/** The counters of a bot summed over the hours on or after `fromHour` (all hours when omitted), optionally before `toHour`. */
export async function sumCounts(db: Db, botId: string, range: { fromHour?: string; toHour?: string } = {}): Promise<Counts> {
  let query = db
    .selectFrom('analytics_hourly')
    .select(COUNTER_FIELDS.map((f) => sql<string | number>`coalesce(sum(${sql.ref(f)}), 0)`.as(f)))
    .where('bot_id', '=', botId);
  if (range.fromHour) query = query.where('hour', '>=', range.fromHour);
  if (range.toHour) query = query.where('hour', '<', range.toHour);
  const row = (await query.executeTakeFirst()) as Record<CounterField, string | number> | undefined;
  return Object.fromEntries(COUNTER_FIELDS.map((f) => [f, Number(row?.[f] ?? 0)])) as Counts;
}

/**
 * Counts a bot's hours again from the stored rows (every bot when `botId` is omitted) and replaces
 * its counters. The migration that added the counters fills them with it; tests compare it with
 * the counters kept in step. Sessions count their current visit; ratings and answers their message's hour.
 */
export async function recountHours(db: Db, botId?: string): Promise<Map<string, Map<string, Counts>>> {
  const byBot = new Map<string, Map<string, Counts>>();
  const cell = (bot: string, hour: string) => {
    let hours = byBot.get(bot);
    if (!hours) byBot.set(bot, (hours = new Map()));
    let counts = hours.get(hour);
    if (!counts) hours.set(hour, (counts = { ...ZERO_COUNTS }));
    return counts;
  };
  const hourExpr = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 13)`;
  const flag = (condition: ReturnType<typeof sql>) => sql<string | number>`sum(case when ${condition} then 1 else 0 end)`;

  let messages = db
    .selectFrom('chat_messages')
    .select([
      'bot_id',
      hourExpr('created_at').as('hour'),
      flag(sql`role = 'user'`).as('user_messages'),
      flag(sql`role = 'assistant'`).as('bot_messages'),
      flag(sql`author = 'bot'`).as('bot_answers'),
      flag(sql`author = 'bot' and unanswered = 1`).as('unanswered_answers'),
      flag(sql`author = 'bot' and sources is not null and sources <> '[]'`).as('grounded_answers'),
      flag(sql`author = 'bot' and latency_ms > ${LATENCY_TARGET_MS}`).as('slow_answers'),
      flag(sql`role = 'assistant' and feedback_rating = 'up'`).as('feedback_up'),
      flag(sql`role = 'assistant' and feedback_rating = 'down'`).as('feedback_down'),
    ])
    .groupBy(['bot_id', hourExpr('created_at')]);
  if (botId) messages = messages.where('bot_id', '=', botId);
  for (const row of await messages.execute()) {
    const counts = cell(row.bot_id, row.hour);
    for (const f of ['user_messages', 'bot_messages', 'bot_answers', 'unanswered_answers', 'grounded_answers', 'slow_answers', 'feedback_up', 'feedback_down'] as const) {
      counts[f] = Number(row[f]);
    }
  }

  const visitorMessages = sql<string | number>`(select count(*) from chat_messages m where m.session_id = s.id and m.role = 'user' and m.created_at >= s.started_at)`;
  let sessions = db
    .selectFrom('chat_sessions as s')
    .select([
      's.bot_id',
      hourExpr('s.started_at').as('hour'),
      (eb) => eb.fn.countAll<string | number>().as('sessions'),
      sql<string | number>`sum(case when ${visitorMessages} >= 2 then 1 else 0 end)`.as('multi_turn_sessions'),
    ])
    .groupBy(['s.bot_id', hourExpr('s.started_at')]);
  if (botId) sessions = sessions.where('s.bot_id', '=', botId);
  for (const row of await sessions.execute()) {
    const counts = cell(row.bot_id, row.hour);
    counts.sessions = Number(row.sessions);
    counts.multi_turn_sessions = Number(row.multi_turn_sessions);
  }

  let leads = db
    .selectFrom('leads')
    .select(['bot_id', hourExpr('created_at').as('hour'), (eb) => eb.fn.countAll<string | number>().as('leads')])
    .groupBy(['bot_id', hourExpr('created_at')]);
  if (botId) leads = leads.where('bot_id', '=', botId);
  for (const row of await leads.execute()) cell(row.bot_id, row.hour).leads = Number(row.leads);
  return byBot;
}

/**
 * Replaces the counters of the bots recounted by `recountHours`. Failed answers leave no row to
 * count, so they are kept as they were. Run it inside a transaction (a migration is one).
 */
export async function rebuildCounts(trx: Db, botId?: string): Promise<void> {
  const recounted = await recountHours(trx, botId);
  let stale = trx.updateTable('analytics_hourly').set(Object.fromEntries(COUNTER_FIELDS.filter((f) => f !== 'failed_answers').map((f) => [f, 0])));
  if (botId) stale = stale.where('bot_id', '=', botId);
  await stale.execute();
  for (const [bot, hours] of recounted) {
    for (const [hour, counts] of hours) {
      const { failed_answers: _kept, ...recount } = counts;
      await trx
        .insertInto('analytics_hourly')
        .values({ bot_id: bot, hour, ...counts })
        .onConflict((oc) => oc.columns(['bot_id', 'hour']).doUpdateSet(recount))
        .execute();
    }
  }
}
