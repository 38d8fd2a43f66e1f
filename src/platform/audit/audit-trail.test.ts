import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { startTestApp, usingPostgres, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, createKey } from '../../testing/factories.ts';
import { obtainOAuthTokens } from '../../testing/oauth.ts';

describe('audit log', () => {
  it('records every public API call with key, bot, endpoint, method, IP, request id, status and latency', async () => {
    const t = await startTestApp({ env: { PARLEY_TRUST_PROXY: '127.0.0.1' } });
    try {
      const { owner, bot, key } = await botWithKey(t);
      const chatOnly = await createKey(t, owner, bot.id, { scopes: ['chat'] });
      await t.request('GET', '/api/v1/bot', { token: key.key, headers: { 'x-request-id': 'audit-ok-1', 'x-forwarded-for': '198.51.100.7' } });
      await t.request('GET', '/api/v1/usage?days=3', { token: key.key, headers: { 'x-request-id': 'audit-ok-2' } });
      await t.request('GET', '/api/v1/bot', { token: chatOnly.key, headers: { 'x-request-id': 'audit-forbidden' } });
      const elsewhere = await createKey(t, owner, bot.id, { allowed_ips: ['203.0.113.9'] });
      await t.request('GET', '/api/v1/bot', { token: elsewhere.key, headers: { 'x-request-id': 'audit-ip-refused' } });
      const { accessToken } = await obtainOAuthTokens(t, { sessionToken: owner.token, scope: 'read' });
      await t.request('GET', '/api/v1/leads', { token: accessToken, headers: { 'x-request-id': 'audit-oauth', 'x-bot-id': bot.id } });
      await t.request('GET', '/api/v1/bot', { headers: { 'x-request-id': 'audit-anonymous' } });
      // Dashboard calls are not public API calls.
      await t.request('GET', '/api/dashboard/bots', { token: owner.token, headers: { 'x-request-id': 'audit-dashboard' } });

      const db = t.runtime.database.db;
      let rows: Awaited<ReturnType<typeof fetchRows>> = [];
      const fetchRows = () => db.selectFrom('audit_log').selectAll().where('request_id', 'like', 'audit-%').orderBy('id').execute();
      for (let i = 0; i < 100 && rows.length < 6; i++) {
        await new Promise((r) => setTimeout(r, 20));
        rows = await fetchRows();
      }
      const byId = new Map(rows.map((row) => [row.request_id, row]));
      assert.deepEqual([...byId.keys()].sort(), ['audit-anonymous', 'audit-forbidden', 'audit-ip-refused', 'audit-oauth', 'audit-ok-1', 'audit-ok-2']);

      const ok = byId.get('audit-ok-1')!;
      assert.equal(ok.key_id, key.id);
      assert.equal(ok.bot_id, bot.id);
      assert.equal(ok.account_id, owner.accountId);
      assert.equal(ok.endpoint, '/api/v1/bot');
      assert.equal(ok.method, 'GET');
      assert.equal(ok.ip, '198.51.100.7');
      assert.equal(ok.status_code, 200);
      assert.ok(ok.latency_ms >= 0 && ok.latency_ms < 10_000);
      assert.match(ok.created_at, /^\d{4}-\d\d-\d\dT/);

      assert.equal(byId.get('audit-ok-2')!.endpoint, '/api/v1/usage');
      // Refused calls keep the credential that made them: the key lacking the scope, the key from a
      // refused address; an OAuth call names the bot it acted on.
      for (const [id, keyId] of [['audit-forbidden', chatOnly.id], ['audit-ip-refused', elsewhere.id]] as const) {
        const row = byId.get(id)!;
        assert.deepEqual([row.status_code, row.key_id, row.bot_id, row.account_id], [403, keyId, bot.id, owner.accountId]);
      }
      const oauth = byId.get('audit-oauth')!;
      assert.deepEqual([oauth.status_code, oauth.key_id, oauth.bot_id, oauth.account_id], [200, null, bot.id, owner.accountId]);
      assert.equal(byId.get('audit-anonymous')!.status_code, 401);
      assert.equal(byId.get('audit-anonymous')!.key_id, null);
    } finally {
      await t.close();
    }
  });

  it('writes buffered entries on a graceful shutdown', async () => {
    const t = await startTestApp({ env: { PARLEY_AUDIT_FLUSH_MS: '3600000' } });
    try {
      const { key } = await botWithKey(t);
      for (let i = 0; i < 5; i++) await t.request('GET', '/api/v1/bot', { token: key.key, headers: { 'x-request-id': `shutdown-${i}` } });
      const db = t.runtime.database.db;
      const buffered = await db.selectFrom('audit_log').select('id').where('request_id', 'like', 'shutdown-%').execute();
      assert.equal(buffered.length, 0, 'entries are written off the request path, not one by one');
      await t.app.close();
      const written = await db.selectFrom('audit_log').select('id').where('request_id', 'like', 'shutdown-%').execute();
      assert.equal(written.length, 5);
    } finally {
      await t.close();
    }
  });

  it('keeps every entry while another connection holds the write lock past the busy timeout, and writes them all afterwards', async () => {
    const failures: string[] = [];
    const otherErrors: string[] = [];
    const logStream = { write: (line: string) => void (line.includes('audit: flush failed') ? failures.push(line) : otherErrors.push(line)) };
    const t = await startTestApp({ app: { logger: { level: 'error', stream: logStream } } });
    try {
      const { key } = await botWithKey(t);
      // SQLite waits 5 s (busy_timeout) for the lock, then fails the write: the lock is held until a
      // write has failed. PostgreSQL waits for the lock as long as it takes; it is held 1.5 s.
      const lock = await holdAuditLock(t);
      // The first ten go without a key (401): nothing but the audit appender writes for them, so
      // its flush meets the lock and fails after the busy timeout. (Keyed requests would also write
      // last-use times and counters on the main connection, whose synchronous wait for the lock
      // would stall the test itself.) The lock goes once a write has failed; the rest come after.
      const ids = Array.from({ length: 30 }, (_, i) => `locked-${i}`);
      for (const id of ids.slice(0, 10)) {
        assert.equal((await t.request('GET', '/api/v1/bot', { headers: { 'x-request-id': id } })).status, 401);
      }
      if (usingPostgres) await new Promise((r) => setTimeout(r, 1500));
      else for (let i = 0; i < 200 && failures.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      await lock.release();
      for (const id of ids.slice(10)) {
        assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key, headers: { 'x-request-id': id } })).status, 200);
      }
      const db = t.runtime.database.db;
      let written: string[] = [];
      for (let i = 0; i < 200 && written.length < ids.length; i++) {
        await new Promise((r) => setTimeout(r, 50));
        written = (await db.selectFrom('audit_log').select('request_id').where('request_id', 'like', 'locked-%').orderBy('id').execute()).map((r) => r.request_id);
      }
      if (!usingPostgres) assert.ok(failures.length > 0, 'the lock made a write fail');
      // An idle service takes no write lock of its own (the webhook and session pollers read first),
      // so nothing else met the lock, and the event loop never stalled waiting for it.
      assert.deepEqual(otherErrors, []);
      assert.deepEqual(written, ids, 'every entry arrives once, in order');
      const usage = await t.request('GET', '/api/v1/usage?days=1', { token: key.key });
      assert.equal(usage.body.totals.api_calls, 21, 'every counted call arrives (the twenty, and this one)');
    } finally {
      await t.close();
    }
  });
});

/** Takes the audit table's write lock from a second connection until `release()`. */
async function holdAuditLock(t: TestApp): Promise<{ release(): Promise<void> }> {
  if (usingPostgres) {
    const client = new pg.Client({ connectionString: t.env.DATABASE_URL });
    await client.connect();
    await client.query(`set search_path = "${t.env.DATABASE_SCHEMA}"`);
    await client.query('begin');
    await client.query('lock table audit_log in exclusive mode');
    return { release: async () => void (await client.query('commit'), await client.end()) };
  }
  // Another process: better-sqlite3 waits for a lock synchronously, so a holder on this thread could
  // not let go while the service's own writes wait. It says it holds the lock over IPC, and lets go
  // when its stdin closes.
  const holder = spawn(process.execPath, ['-e', LOCK_HOLDER, join(t.env.DATA_DIR!, 'parley.sqlite')], { stdio: ['pipe', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve, reject) =>
    holder.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the lock holder failed (${code})`)))),
  );
  await Promise.race([new Promise((resolve) => holder.once('message', resolve)), exited.then(() => Promise.reject(new Error('the lock holder exited early')))]);
  return {
    release: () => {
      holder.stdin!.end();
      return exited;
    },
  };
}

/** Takes SQLite's write lock on the file given, says so, and lets go when its stdin closes (or after 60 s). */
const LOCK_HOLDER = `
  const SQLite = require('better-sqlite3');
  const db = new SQLite(process.argv[1]);
  db.exec('begin immediate');
  const letGo = () => { clearTimeout(timer); db.exec('commit'); db.close(); process.exit(0); };
  const timer = setTimeout(letGo, 60000);
  process.stdin.on('end', letGo).resume();
  process.send('locked');
`;
