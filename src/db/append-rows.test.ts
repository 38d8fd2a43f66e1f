import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../testing/test-app.ts';

describe('appending rows in batches', () => {
  it('writes every row of a batch with its values, whatever the batch size', async () => {
    const t = await startTestApp();
    try {
      const { appendRows, db } = t.runtime.database;
      // 123 rows: on SQLite two statements of 50 rows, then 23 one at a time.
      const rows = Array.from({ length: 123 }, (_, i) => ({
        request_id: `append-${String(i).padStart(3, '0')}`,
        key_id: i % 2 ? `key-${i}` : null,
        bot_id: null,
        account_id: null,
        method: i % 3 ? 'GET' : 'POST',
        endpoint: `/api/v1/thing/${i}`,
        ip: `192.0.2.${i}`,
        status_code: 200 + i,
        latency_ms: i / 8,
        created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      }));
      await appendRows('audit_log', rows);
      await appendRows('audit_log', rows.slice(0, 1).map((r) => ({ ...r, request_id: 'append-single' })));
      const stored = await db
        .selectFrom('audit_log')
        .select(['request_id', 'key_id', 'bot_id', 'account_id', 'method', 'endpoint', 'ip', 'status_code', 'latency_ms', 'created_at'])
        .where('request_id', 'like', 'append-%')
        .orderBy('request_id')
        .execute();
      assert.deepEqual(stored.slice(0, 123), rows);
      assert.equal(stored[123]!.request_id, 'append-single');
    } finally {
      await t.close();
    }
  });
});
