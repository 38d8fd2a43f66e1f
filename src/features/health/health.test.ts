import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../testing/test-app.ts';

describe('health', () => {
  it('answers /healthz and /readyz without authentication, and /readyz 503 once the database is gone', async () => {
    const t = await startTestApp();
    try {
      const health = await t.request('GET', '/healthz');
      assert.equal(health.status, 200);
      assert.deepEqual(health.body, { status: 'ok' });
      const ready = await t.request('GET', '/readyz');
      assert.equal(ready.status, 200);

      await t.runtime.database.close();
      const notReady = await t.request('GET', '/readyz');
      assert.equal(notReady.status, 503);
      assert.equal(typeof notReady.body.detail, 'string');
      assert.equal((await t.request('GET', '/healthz')).status, 200);
    } finally {
      await t.close();
    }
  });
});
