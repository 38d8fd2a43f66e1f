import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Insertable } from 'kysely';
import { startTestApp } from '../testing/test-app.ts';
import { cachedQuery } from './cached-query.ts';
import type { AuditLogTable } from './schema.ts';

describe('queries compiled once', () => {
  it('writes and reads what the query builder would, for each shape of its parameters, and refuses a parameter that is not a value', async () => {
    const t = await startTestApp();
    try {
      const { db } = t.runtime.database;
      const insert = cachedQuery((db, row: Insertable<AuditLogTable>) => db.insertInto('audit_log').values(row));
      const byEndpoint = cachedQuery((db, p: { endpoint: string; from: number }) =>
        db.selectFrom('audit_log').select(['request_id', 'key_id', 'status_code']).where('endpoint', '=', p.endpoint).where('status_code', '>=', p.from).orderBy('request_id'),
      );
      const row = (i: number) => ({ request_id: `cached-${i}`, key_id: `key-${i}`, bot_id: null, account_id: null, method: 'GET', endpoint: '/cached', ip: '192.0.2.1', status_code: 200 + i, latency_ms: i / 4, created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() });
      await insert(db, row(1));
      await insert(db, row(2));
      // Another shape: key_id left out takes the column's default (null).
      await insert(db, { ...row(3), key_id: undefined });
      const viaBuilder = await db.selectFrom('audit_log').select(['request_id', 'key_id', 'status_code']).where('endpoint', '=', '/cached').where('status_code', '>=', 202).orderBy('request_id').execute();
      const cached = await byEndpoint(db, { endpoint: '/cached', from: 202 });
      assert.deepEqual(cached.rows, viaBuilder);
      assert.deepEqual(cached.rows, [
        { request_id: 'cached-2', key_id: 'key-2', status_code: 202 },
        { request_id: 'cached-3', key_id: null, status_code: 203 },
      ]);
      assert.equal((await byEndpoint(db, { endpoint: '/cached', from: 0 })).rows.length, 3, 'the same statement with other values');

      // A build that reads its parameter instead of passing it on is caught at once.
      const misused = cachedQuery((db, p: { endpoint: string; limit: number }) => db.selectFrom('audit_log').selectAll().where('endpoint', '=', p.endpoint).limit(Number(p.limit) || 5));
      await assert.rejects(async () => misused(db, { endpoint: '/cached', limit: 2 }), /limit never reached the query as a value/);
    } finally {
      await t.close();
    }
  });
});
