/**
 * Analytics figures for `npm run bench`: `GET /api/v1/analytics` (lifetime, and since a time in
 * the middle of an hour) and the scorecard on a bot with 1,000,000 stored messages, one request at
 * a time over HTTP against the running service. Beside them, for scale, the time SQLite takes to
 * count that bot's messages directly, which is what the hourly counters spare each request.
 *
 * The rows are written straight into the service's SQLite file (the API would take hours to
 * make a million messages), then the counters are rebuilt from them as the migration does.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../src/db/schema.ts';
import type { Db } from '../src/db/database.ts';
import { rebuildCounts } from '../src/features/analytics/analytics-counters.ts';
import { pseudoRandom, row, type LatencyRow } from './knowledge.ts';
import type { Fixtures } from './bench.ts';

const MESSAGES = Number(process.env.BENCH_ANALYTICS_MESSAGES ?? 1_000_000);
const MESSAGES_PER_SESSION = 10;
const DAYS = 365;
const SAMPLES = 300;

/** Writes `MESSAGES` messages in sessions of ten over the last year into the bot, then its counters. */
async function seed(dataDir: string, botId: string, accountId: string): Promise<void> {
  const file = new SQLite(path.join(dataDir, 'parley.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('busy_timeout = 10000');
  const random = pseudoRandom(7);
  const now = Date.now();
  const insertSession = file.prepare(
    `insert into chat_sessions (id, bot_id, account_id, session_key, visitor_id, visitor_timezone, metadata, status, taken_over, message_count, started_at, last_activity_at, ended_at, lead_state)
     values (?, ?, ?, ?, null, 'UTC', null, 'ended', 0, ?, ?, ?, ?, null)`,
  );
  const insertMessage = file.prepare(
    `insert into chat_messages (id, session_id, bot_id, role, author, content, feedback_rating, latency_ms, engine, sources, unanswered, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertLead = file.prepare(
    `insert into leads (id, bot_id, session_row_id, session_key, name, email, phone, extra, created_at, updated_at) values (?, ?, ?, ?, '', ?, '', '{}', ?, ?)`,
  );
  const sessions = MESSAGES / MESSAGES_PER_SESSION;
  const writeBatch = file.transaction((from: number, to: number) => {
    for (let s = from; s < to; s++) {
      const start = now - Math.floor(random() * DAYS * 86_400_000) - 3_600_000;
      const sessionId = randomUUID();
      const iso = (ms: number) => new Date(ms).toISOString();
      insertSession.run(sessionId, botId, accountId, `bench-${s}`, MESSAGES_PER_SESSION, iso(start), iso(start + 60_000), iso(start + 1_860_000));
      for (let m = 0; m < MESSAGES_PER_SESSION; m++) {
        const user = m % 2 === 0;
        const unanswered = !user && random() < 0.1 ? 1 : null;
        const rating = !user && random() < 0.05 ? (random() < 0.8 ? 'up' : 'down') : null;
        insertMessage.run(
          randomUUID(), sessionId, botId, user ? 'user' : 'assistant', user ? 'visitor' : 'bot', user ? 'When do you open on Saturdays?' : 'We open at 9 am.',
          rating, user ? null : 40 + Math.floor(random() * 400), user ? null : 'parley-local', user || unanswered ? null : '[{"title":"Hours","url":""}]', unanswered, iso(start + m * 5000),
        );
      }
      if (random() < 0.05) insertLead.run(randomUUID(), botId, sessionId, `bench-${s}`, `lead${s}@example.com`, iso(start + 30_000), iso(start + 30_000));
    }
  });
  for (let s = 0; s < sessions; s += 2000) writeBatch(s, Math.min(sessions, s + 2000));
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) }) as unknown as Db;
  await db.transaction().execute((trx) => rebuildCounts(trx, botId));
  await db.destroy();
}

async function timeRequests(url: string, token: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES + 20; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`analytics bench: ${url} answered ${res.status}`);
    if (i >= 20) times.push(performance.now() - started);
  }
  return times;
}

export async function measureAnalytics(fixtures: Fixtures, dataDir: string): Promise<LatencyRow[]> {
  const bot = await fixtures.api<{ id: string }>('POST', '/api/dashboard/bots', { token: fixtures.token, body: { name: 'Analytics bench' } });
  const key = await fixtures.api<{ key: string }>('POST', '/api/keys', { token: fixtures.token, body: { bot_id: bot.id, name: 'analytics', scopes: ['read'] } });
  const seeded = performance.now();
  await seed(dataDir, bot.id, fixtures.accountId);
  console.log(`  seeded ${MESSAGES.toLocaleString('en')} messages in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  // The seeding blocked this process's event loop for a while: let it see the kept-alive sockets
  // the service closed meanwhile before the next request picks one.
  await new Promise((resolve) => setTimeout(resolve, 500));

  const lifetime = await fixtures.api<{ total_messages: number }>('GET', '/api/v1/analytics', { token: key.key });
  if (lifetime.total_messages !== MESSAGES) throw new Error(`analytics bench: counted ${lifetime.total_messages} messages, stored ${MESSAGES}`);

  // Mid-hour, so that the partial hour is counted from the rows.
  const since = new Date(Date.now() - 30 * 86_400_000 - 1_234_567).toISOString();
  const target = { percentile: 'p95', maxMs: 20 } as const;
  const base = fixtures.parleyUrl;
  const rows = [
    row('GET /api/v1/analytics, 1M messages, lifetime', await timeRequests(`${base}/api/v1/analytics`, key.key), target),
    row('GET /api/v1/analytics, 1M messages, since 30 days', await timeRequests(`${base}/api/v1/analytics?since=${since}`, key.key), target),
    row('scorecard, 1M messages, 30 days', await timeRequests(`${base}/api/admin/analytics/scorecard?bot_id=${bot.id}`, key.key), target),
    row('scorecard, 1M messages, 365 days', await timeRequests(`${base}/api/admin/analytics/scorecard?bot_id=${bot.id}&days=365`, key.key), target),
  ];

  // For scale: counting the rows directly, as analytics did before the counters.
  const file = new SQLite(path.join(dataDir, 'parley.sqlite'), { readonly: true });
  const count = file.prepare('select role, count(*) from chat_messages where bot_id = ? group by role');
  const direct: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    count.all(bot.id);
    direct.push(performance.now() - started);
  }
  file.close();
  rows.push(row('for scale: counting the 1M rows in SQLite, no HTTP', direct));
  return rows;
}
