// A process killed with SIGKILL while deliveries are under way delivers them after it comes back:
// the deliveries were committed with their events, and the dead process's leases run out.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { dropPostgresSchema } from '../../db/database.ts';
import { usingPostgres } from '../../testing/test-app.ts';
import { freePort } from '../../testing/free-port.ts';
import { startWebhookReceiver } from '../../testing/webhook-receiver.ts';
import { serverProcessEnv, startServerProcess } from '../../testing/server-process.ts';

describe('webhook delivery across a crash', () => {
  it('delivers, after a restart, the deliveries a SIGKILLed process had claimed or not yet sent', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-crash-'));
    // Random ports in the ephemeral range collide with other tests' outgoing connections.
    const port = await freePort();
    const schema = `crash_${randomBytes(5).toString('hex')}`;
    const base = `http://127.0.0.1:${port}`;
    const env = serverProcessEnv({
      port,
      dataDir,
      schema,
      extra: { PARLEY_ALLOW_PRIVATE_NETWORK: '1', PARLEY_WEBHOOK_TIMEOUT_MS: '3000', PARLEY_WEBHOOK_RETRY_DELAYS: '1,1,1,1,1,1,1' },
    });
    const receiver = await startWebhookReceiver();
    let server: ChildProcess | undefined;
    try {
      server = await startServerProcess(env);
      const post = (path: string, body: unknown, token?: string) =>
        fetch(base + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
          body: JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
      const { body: account } = await post('/api/auth/signup', { email: 'crash@example.com', password: 'long enough' });
      const { body: bot } = await post('/api/dashboard/bots', { name: 'Bot' }, account.token);
      const { body: key } = await post('/api/keys', { bot_id: bot.id, name: 'k', scopes: ['chat', 'read', 'write'] }, account.token);
      const hook = await post('/api/v1/webhooks', { url: receiver.url('/crash'), events: ['message.user'] }, key.key);
      assert.equal(hook.status, 201);
      receiver.secret('/crash', hook.body.secret);

      // The receiver hangs: when the process dies, 32 deliveries (one receiver's share of the
      // sending slots) are in flight and the rest are queued, not yet sent.
      receiver.behave('/crash', 'hang');
      const turns = 40;
      const inFlight = 32;
      const statuses = await Promise.all(Array.from({ length: turns }, (_, i) => post('/api/v1/chat', { text: `Message ${i}`, session_id: `crash-${i}` }, key.key).then((r) => r.status)));
      assert.deepEqual(new Set(statuses), new Set([200]));
      await receiver.waitFor('/crash', inFlight);
      server.kill('SIGKILL');
      await new Promise((resolve) => server!.once('exit', resolve));
      const sent = new Set(receiver.received.filter((r) => r.path === '/crash').map((r) => r.deliveryId));
      assert.equal(sent.size, inFlight);

      receiver.behave('/crash', 'ok');
      server = await startServerProcess(env);
      // Lease: the time-out plus 5 s; then each delivery is attempted again and answered.
      const deadline = Date.now() + 30_000;
      const answered = () => receiver.received.filter((r) => r.path === '/crash').slice(inFlight);
      while (new Set(answered().map((r) => r.deliveryId)).size < turns && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const redelivered = new Set(answered().map((r) => r.deliveryId));
      assert.equal(redelivered.size, turns, 'every delivery, in flight or queued at the crash, arrives after the restart');
      for (const id of sent) assert.ok(redelivered.has(id), 'including those in flight');
      assert.ok(answered().every((r) => r.signatureValid));
    } finally {
      server?.kill('SIGKILL');
      await receiver.close();
      if (usingPostgres) await dropPostgresSchema(process.env.TEST_DATABASE_URL!, schema);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
