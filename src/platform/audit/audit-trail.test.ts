import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../testing/test-app.ts';
import { botWithKey, createKey } from '../../testing/factories.ts';

describe('audit log', () => {
  it('records every public API call with key, bot, endpoint, method, IP, request id, status and latency', async () => {
    const t = await startTestApp({ env: { PARLEY_TRUST_PROXY: '127.0.0.1' } });
    try {
      const { owner, bot, key } = await botWithKey(t);
      const chatOnly = await createKey(t, owner, bot.id, { scopes: ['chat'] });
      await t.request('GET', '/api/v1/bot', { token: key.key, headers: { 'x-request-id': 'audit-ok-1', 'x-forwarded-for': '198.51.100.7' } });
      await t.request('GET', '/api/v1/usage?days=3', { token: key.key, headers: { 'x-request-id': 'audit-ok-2' } });
      await t.request('GET', '/api/v1/bot', { token: chatOnly.key, headers: { 'x-request-id': 'audit-forbidden' } });
      await t.request('GET', '/api/v1/bot', { headers: { 'x-request-id': 'audit-anonymous' } });
      // Dashboard calls are not public API calls.
      await t.request('GET', '/api/dashboard/bots', { token: owner.token, headers: { 'x-request-id': 'audit-dashboard' } });

      const db = t.runtime.database.db;
      let rows: Awaited<ReturnType<typeof fetchRows>> = [];
      const fetchRows = () => db.selectFrom('audit_log').selectAll().where('request_id', 'like', 'audit-%').orderBy('id').execute();
      for (let i = 0; i < 100 && rows.length < 4; i++) {
        await new Promise((r) => setTimeout(r, 20));
        rows = await fetchRows();
      }
      const byId = new Map(rows.map((row) => [row.request_id, row]));
      assert.deepEqual([...byId.keys()].sort(), ['audit-anonymous', 'audit-forbidden', 'audit-ok-1', 'audit-ok-2']);

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
      assert.equal(byId.get('audit-forbidden')!.status_code, 403);
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
});
