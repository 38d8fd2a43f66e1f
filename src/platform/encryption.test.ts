import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { DecryptionError, decryptSecret, encryptSecret, loadMasterKey, MasterKeyError, parseMasterKey, SECRET_KEY_FILE } from './encryption.ts';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'parley-enc-'));
}

const key = loadMasterKey({ secretKey: randomBytes(32).toString('hex'), dataDir: '/nonexistent' });

describe('encryptSecret / decryptSecret', () => {
  it('round-trips text, in a versioned form that never shows the plain text', () => {
    for (const plain of ['sk-proj-abc123', '', 'ünïcødé 🔑 '.repeat(40)]) {
      const stored = encryptSecret(key, plain);
      assert.match(stored, /^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]*$/);
      if (plain) assert.ok(!stored.includes(plain));
      assert.equal(decryptSecret(key, stored), plain);
    }
  });

  it('uses a fresh IV each time', () => {
    assert.notEqual(encryptSecret(key, 'same'), encryptSecret(key, 'same'));
  });

  it('detects tampering with the ciphertext, the tag or the IV', () => {
    const stored = encryptSecret(key, 'sk-secret-value');
    const parts = stored.split(':');
    for (const index of [1, 2, 3]) {
      const changed = [...parts];
      const bytes = Buffer.from(changed[index]!, 'base64url');
      bytes[0]! ^= 0x01;
      changed[index] = bytes.toString('base64url');
      assert.throws(() => decryptSecret(key, changed.join(':')), DecryptionError);
    }
    assert.throws(() => decryptSecret(key, stored.slice(0, -2)), DecryptionError);
    assert.throws(() => decryptSecret(key, 'v2' + stored.slice(2)), DecryptionError);
    assert.throws(() => decryptSecret(key, 'not a secret'), DecryptionError);
  });

  it('fails under another key or another context', () => {
    const other = loadMasterKey({ secretKey: randomBytes(32).toString('base64url'), dataDir: '/nonexistent' });
    const stored = encryptSecret(key, 'sk-secret-value', 'bot-a:openai');
    assert.throws(() => decryptSecret(other, stored, 'bot-a:openai'), DecryptionError);
    assert.throws(() => decryptSecret(key, stored, 'bot-b:openai'), DecryptionError);
    assert.equal(decryptSecret(key, stored, 'bot-a:openai'), 'sk-secret-value');
  });
});

describe('loadMasterKey', () => {
  it('accepts 32 bytes as hex, base64 and base64url', () => {
    const bytes = randomBytes(32);
    for (const text of [bytes.toString('hex'), bytes.toString('hex').toUpperCase(), bytes.toString('base64'), bytes.toString('base64url')]) {
      assert.deepEqual(Buffer.from(loadMasterKey({ secretKey: text, dataDir: '/nonexistent' })), bytes);
    }
  });

  it('refuses anything else, naming the variable', () => {
    for (const text of ['short', randomBytes(16).toString('hex'), randomBytes(33).toString('base64'), 'z'.repeat(64), randomBytes(31).toString('base64url')]) {
      assert.equal(parseMasterKey(text), undefined, text);
      assert.throws(
        () => loadMasterKey({ secretKey: text, dataDir: '/nonexistent' }),
        (err: Error) => err instanceof MasterKeyError && err.message.includes('PARLEY_SECRET_KEY') && !err.message.includes(text),
      );
    }
  });

  it('without PARLEY_SECRET_KEY, generates a key file with mode 0600 once and reuses it', () => {
    const dir = path.join(tempDir(), 'nested');
    try {
      const first = loadMasterKey({ dataDir: dir });
      const file = path.join(dir, SECRET_KEY_FILE);
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.deepEqual(fs.readdirSync(dir), [SECRET_KEY_FILE]);
      const second = loadMasterKey({ dataDir: dir, secretKey: '' });
      assert.deepEqual(Buffer.from(second), Buffer.from(first));
      const stored = encryptSecret(first, 'kept across restarts');
      assert.equal(decryptSecret(second, stored), 'kept across restarts');
    } finally {
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });

  it('refuses a damaged key file, naming it', () => {
    const dir = tempDir();
    try {
      fs.writeFileSync(path.join(dir, SECRET_KEY_FILE), 'garbage\n', { mode: 0o600 });
      assert.throws(() => loadMasterKey({ dataDir: dir }), (err: Error) => err instanceof MasterKeyError && err.message.includes(SECRET_KEY_FILE));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
