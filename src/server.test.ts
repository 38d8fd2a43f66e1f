import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadConfig } from './config/config.ts';
import { dropPostgresSchema, openDatabase } from './db/database.ts';
import { usingPostgres } from './testing/test-app.ts';
import { serverProcessEnv, startServerProcess } from './testing/server-process.ts';
import { freePort } from './testing/free-port.ts';

/** The real entry point as a process: start, serve, and shut down gracefully on SIGTERM. */
describe('server process', () => {
  it('serves, refuses a bad configuration (a port, an embedding model) by name, and on SIGTERM finishes and flushes the audit log', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-server-'));
    // Random ports in the ephemeral range collide with other tests' outgoing connections.
    const port = await freePort();
    const schema = `srv_${randomBytes(5).toString('hex')}`;
    const env = serverProcessEnv({ port, dataDir, schema, extra: { PARLEY_AUDIT_FLUSH_MS: '3600000' } });
    try {
      const bad = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { env: { ...env, PORT: 'not-a-port' } });
      let badOutput = '';
      bad.stderr.on('data', (chunk) => (badOutput += chunk));
      const badCode = await new Promise((resolve) => bad.on('exit', resolve));
      assert.equal(badCode, 1);
      assert.match(badOutput, /PORT: expected an integer/);

      const unknownEmbedding = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { env: { ...env, PARLEY_EMBEDDING_MODEL: 'bogus:x' } });
      let embeddingOutput = '';
      unknownEmbedding.stderr.on('data', (chunk) => (embeddingOutput += chunk));
      assert.equal(await new Promise((resolve) => unknownEmbedding.on('exit', resolve)), 1);
      assert.match(embeddingOutput, /PARLEY_EMBEDDING_MODEL: expected provider:model with provider openai, mistral or google .*got 'bogus:x'/);

      const server = await startServerProcess(env);
      const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
      const base = `http://127.0.0.1:${port}`;

      const post = (path: string, body: unknown, token?: string) =>
        fetch(base + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<any>);
      const { token } = await post('/api/auth/signup', { email: 'server@example.com', password: 'long enough' });
      const bot = await post('/api/dashboard/bots', { name: 'Bot' }, token);
      const { key } = await post('/api/keys', { bot_id: bot.id, name: 'k' }, token);
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${base}/api/v1/bot`, { headers: { authorization: `Bearer ${key}`, 'x-request-id': `graceful-${i}` } });
        assert.equal(res.status, 200);
      }

      server.kill('SIGTERM');
      assert.equal(await exited, 0);

      // What it wrote holds visitors' and members' data: readable by its own user only.
      const written = (dir: string): string[] => readdirSync(dir).flatMap((name) => [join(dir, name), ...(statSync(join(dir, name)).isDirectory() ? written(join(dir, name)) : [])]);
      const shared = written(dataDir).filter((path) => (statSync(path).mode & 0o077) !== 0);
      assert.ok(written(dataDir).length > 0);
      assert.deepEqual(shared, [], 'no file or folder open to group or others');

      const handle = await openDatabase(loadConfig(env));
      try {
        const rows = await handle.db.selectFrom('audit_log').select('request_id').where('request_id', 'like', 'graceful-%').execute();
        assert.equal(rows.length, 3, 'buffered audit entries were written on shutdown');
      } finally {
        await handle.close();
      }
    } finally {
      if (usingPostgres) await dropPostgresSchema(process.env.TEST_DATABASE_URL!, schema);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
