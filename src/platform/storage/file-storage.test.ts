import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { loadConfig, type StorageConfig } from '../../config/config.ts';
import { startTestApp, usingPostgres, type TestApp } from '../../testing/test-app.ts';
import { botWithKey } from '../../testing/factories.ts';
import { startLocalS3, type LocalS3 } from '../../testing/s3-server.ts';
import { createFileStorage, StorageUnavailableError, type FileStorage } from './file-storage.ts';
import { CHUNK_BYTES } from './database-file-storage.ts';

/** A PNG of one pixel, then `padding` bytes in a tEXt-like tail (still detected as PNG). */
function png(padding = 0): Buffer {
  const pixel = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f5b4d30000000049454e44ae426082', 'hex');
  return Buffer.concat([pixel, randomBytes(padding)]);
}

async function readAll(storage: FileStorage, key: string): Promise<Buffer | undefined> {
  const stored = await storage.open(key);
  if (!stored) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stored.stream) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  assert.equal(stored.sizeBytes, body.length, 'sizeBytes is the stored size');
  return body;
}

function temporaryFile(storage: FileStorage, bytes: Buffer): string {
  mkdirSync(storage.incomingDir, { recursive: true });
  const file = join(storage.incomingDir, `${randomUUID()}.part`);
  writeFileSync(file, bytes);
  return file;
}

describe('file storage backends: one contract', () => {
  let t: TestApp;
  let s3: LocalS3;
  const backends: Array<[string, () => FileStorage]> = [];
  before(async () => {
    t = await startTestApp();
    s3 = await startLocalS3();
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-storage-'));
    const deps = { dataDir, db: t.runtime.database.db, seam: t.runtime.database.dialect };
    const s3Config = loadConfig({ ...s3.env, DATA_DIR: dataDir }).storage;
    backends.push(['local', () => createFileStorage({ kind: 'local', timeoutMs: 1000 }, deps)]);
    backends.push(['database', () => createFileStorage({ kind: 'database', timeoutMs: 1000 }, deps)]);
    backends.push(['s3', () => createFileStorage(s3Config, deps)]);
  });
  after(async () => {
    await s3.close();
    await t.close();
  });

  for (const name of ['local', 'database', 's3']) {
    it(`${name}: keeps a file whole, streams it back, replaces it, and removes by prefix`, async () => {
      const storage = backends.find(([n]) => n === name)![1]();
      const bot = randomUUID();
      const session = randomUUID();
      const otherSession = randomUUID();
      // Several database chunks, not a multiple of the chunk size.
      const big = randomBytes(CHUNK_BYTES * 3 + 12345);
      const small = randomBytes(10);
      const temporary = temporaryFile(storage, big);
      await storage.put(`${bot}/${session}/a`, temporary);
      assert.equal(existsSync(temporary), false, 'the temporary file is gone');
      await storage.put(`${bot}/${session}/b`, temporaryFile(storage, small));
      await storage.put(`${bot}/${otherSession}/c`, temporaryFile(storage, small));
      assert.deepEqual(await readAll(storage, `${bot}/${session}/a`), big);
      assert.equal(await storage.open(`${bot}/${session}/missing`), undefined);

      await storage.put(`${bot}/${session}/b`, temporaryFile(storage, big));
      assert.deepEqual(await readAll(storage, `${bot}/${session}/b`), big, 'a second put replaces');

      await storage.removeAll(`${bot}/${session}`);
      assert.equal(await storage.open(`${bot}/${session}/a`), undefined);
      assert.equal(await storage.open(`${bot}/${session}/b`), undefined);
      assert.deepEqual(await readAll(storage, `${bot}/${otherSession}/c`), small, "another session's file stays");
      await storage.removeAll(bot);
      assert.equal(await storage.open(`${bot}/${otherSession}/c`), undefined);
      await storage.removeAll(randomUUID());
      for (const bad of ['../x', 'a/../b', '/abs', 'a//b', '.hidden', 'a/b\\c', '']) {
        await assert.rejects(() => storage.open(bad), /Invalid storage key/, bad);
      }
      assert.deepEqual(readdirSync(storage.incomingDir), [], 'no temporary file left');
      await storage.close();
    });
  }
});

describe('file storage faults: a store that is down or silent', () => {
  let silent: Server;
  let silentPort: number;
  const sockets = new Set<Socket>();
  before(async () => {
    // Accepts connections and never answers.
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  function s3At(endpoint: string): FileStorage {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-storage-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      PARLEY_STORAGE: 's3',
      PARLEY_S3_BUCKET: 'b',
      PARLEY_S3_ENDPOINT: endpoint,
      PARLEY_S3_FORCE_PATH_STYLE: '1',
      PARLEY_S3_ACCESS_KEY_ID: 'k',
      PARLEY_S3_SECRET_ACCESS_KEY: 's',
      PARLEY_STORAGE_TIMEOUT_MS: '300',
    }).storage as StorageConfig;
    return createFileStorage(config, { dataDir, db: undefined as never, seam: undefined as never });
  }

  for (const [what, endpoint] of [
    ['refuses connections', () => 'http://127.0.0.1:1'],
    ['never answers', () => `http://127.0.0.1:${silentPort}`],
  ] as const) {
    it(`answers StorageUnavailableError (503) within the time-out when the store ${what}, and leaves no temporary file`, async () => {
      const storage = s3At(endpoint());
      const started = Date.now();
      const temporary = temporaryFile(storage, png(100));
      await assert.rejects(() => storage.put(`${randomUUID()}/${randomUUID()}/f`, temporary), (err: unknown) => err instanceof StorageUnavailableError && err.status === 503);
      assert.equal(existsSync(temporary), false);
      await assert.rejects(() => storage.open(`${randomUUID()}/x`), StorageUnavailableError);
      assert.ok(Date.now() - started < 5000, `gave up in ${Date.now() - started} ms`);
      await storage.close();
    });
  }

  it('refuses to start with s3 storage but no bucket or credentials, naming the variables', () => {
    assert.throws(() => loadConfig({ PARLEY_STORAGE: 's3' }), /PARLEY_S3_BUCKET[\s\S]*PARLEY_S3_ACCESS_KEY_ID/);
    assert.throws(() => loadConfig({ PARLEY_STORAGE: 'ftp' }), /PARLEY_STORAGE/);
  });
});

describe('chat media on shared storage: uploaded through one instance, served by another', () => {
  let s3: LocalS3;
  before(async () => {
    s3 = await startLocalS3();
  });
  after(() => s3.close());

  for (const backend of ['s3', 'database'] as const) {
    it(`${backend}: the link from instance B answers on instance A; clearing the session removes the file`, async () => {
      // Instances share the master key (as the README asks): media links are signed under it.
      const env = { ...(backend === 's3' ? s3.env : { PARLEY_STORAGE: 'database' }), PARLEY_SECRET_KEY: randomBytes(32).toString('hex') };
      const a = await startTestApp({ env });
      // A second instance on the same database and Redis. On PostgreSQL it has its own DATA_DIR (no
      // shared disk); SQLite's database lives in DATA_DIR, so there the two share it.
      const b = await startTestApp({ env: usingPostgres ? { ...env, DATA_DIR: mkdtempSync(join(tmpdir(), 'parley-b-')) } : env, shareWith: a });
      try {
        const { bot, key } = await botWithKey(a, { scopes: ['chat', 'read', 'write'] });
        const image = png(50_000);
        const form = new FormData();
        form.set('session_id', 'shared-1');
        form.set('bot_id', bot.id);
        form.set('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'photo.png');
        const upload = await fetch(`${b.url}/api/widget/chat/media`, { method: 'POST', body: form });
        assert.equal(upload.status, 200, await upload.clone().text());
        const { file_url: fileUrl } = (await upload.json()) as { file_url: string };
        const path = new URL(fileUrl).pathname + new URL(fileUrl).search;
        for (const instance of [a, b]) {
          const res = await fetch(instance.url + path);
          assert.equal(res.status, 200, instance.url);
          assert.deepEqual(Buffer.from(await res.arrayBuffer()), image);
        }
        assert.equal((await a.request('DELETE', '/api/v1/conversations/shared-1', { token: key.key })).status, 200);
        // Removal runs after the answer.
        let status = 200;
        for (let i = 0; i < 50 && status === 200; i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          status = (await fetch(b.url + path)).status;
        }
        assert.equal(status, 404);
        if (backend === 'database') {
          const left = await a.runtime.database.db.selectFrom('stored_files').select('key').where('key', 'like', `${bot.id}%`).execute();
          assert.deepEqual(left, []);
        }
      } finally {
        await b.close();
        await a.close();
      }
    });
  }

  it('answers 503 with a detail on upload and download while the store is down', async () => {
    const env = { ...s3.env, PARLEY_S3_ENDPOINT: 'http://127.0.0.1:1', PARLEY_STORAGE_TIMEOUT_MS: '300' };
    const t = await startTestApp({ env });
    try {
      const { bot } = await botWithKey(t);
      const form = new FormData();
      form.set('session_id', 'down-1');
      form.set('bot_id', bot.id);
      form.set('file', new Blob([new Uint8Array(png(10))], { type: 'image/png' }), 'photo.png');
      const res = await fetch(`${t.url}/api/widget/chat/media`, { method: 'POST', body: form });
      assert.equal(res.status, 503);
      assert.match(((await res.json()) as { detail: string }).detail, /File storage is unavailable/);
      const rows = await t.runtime.database.db.selectFrom('media_files').select('id').where('bot_id', '=', bot.id).execute();
      assert.deepEqual(rows, [], 'nothing recorded for a file that was not stored');
    } finally {
      await t.close();
    }
  });

  it('answers 503 on download when the store goes away after the upload', async () => {
    const store = await startLocalS3('parley-going');
    const t = await startTestApp({ env: { ...store.env, PARLEY_STORAGE_TIMEOUT_MS: '2000' } });
    try {
      const { bot } = await botWithKey(t);
      const form = new FormData();
      form.set('session_id', 'going-1');
      form.set('bot_id', bot.id);
      form.set('file', new Blob([new Uint8Array(png(10))], { type: 'image/png' }), 'photo.png');
      const upload = await fetch(`${t.url}/api/widget/chat/media`, { method: 'POST', body: form });
      assert.equal(upload.status, 200);
      const fileUrl = new URL(((await upload.json()) as { file_url: string }).file_url);
      assert.equal((await fetch(t.url + fileUrl.pathname + fileUrl.search)).status, 200);
      await store.close();
      const res = await fetch(t.url + fileUrl.pathname + fileUrl.search);
      assert.equal(res.status, 503);
      assert.match(((await res.json()) as { detail: string }).detail, /File storage is unavailable/);
    } finally {
      await t.close();
    }
  });
});
