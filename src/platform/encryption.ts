/**
 * Secrets that must be recoverable (bring-your-own provider keys, webhook and catalog signing
 * secrets) are stored encrypted with AES-256-GCM under one master key: `PARLEY_SECRET_KEY`, or on
 * the embedded default a key generated once into `DATA_DIR/secret.key` (mode 0600).
 *
 * Stored form: `v1:<iv>:<tag>:<ciphertext>`, each part base64url; the version lets the format or
 * the key change later without guessing.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** 32 bytes of key material for AES-256-GCM. */
export type MasterKey = Buffer & { readonly __masterKey: unique symbol };

export const SECRET_KEY_VARIABLE = 'PARLEY_SECRET_KEY';
export const SECRET_KEY_FILE = 'secret.key';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}={0,1}$/;

/** The master key is missing, malformed or unreadable; the message names the variable or file. */
export class MasterKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MasterKeyError';
  }
}

/** A stored secret failed authentication: tampered with, truncated, or written under another key. */
export class DecryptionError extends Error {
  constructor(message = 'The stored secret cannot be decrypted (tampered with, or written under another master key)') {
    super(message);
    this.name = 'DecryptionError';
  }
}

/**
 * Reads 32 bytes written as 64 hex characters or as base64/base64url (with or without padding);
 * returns undefined for anything else.
 */
export function parseMasterKey(text: string): MasterKey | undefined {
  const value = text.trim();
  let bytes: Buffer | undefined;
  if (HEX_KEY.test(value)) bytes = Buffer.from(value, 'hex');
  else if (BASE64_KEY.test(value) && !(/[+/]/.test(value) && /[-_]/.test(value))) {
    bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  }
  return bytes && bytes.length === KEY_BYTES ? (bytes as MasterKey) : undefined;
}

export interface MasterKeySource {
  /** The value of PARLEY_SECRET_KEY, if set. */
  secretKey?: string;
  /** Where the generated key lives when PARLEY_SECRET_KEY is unset. */
  dataDir: string;
}

/**
 * The master key: PARLEY_SECRET_KEY when set (refused unless it is 32 bytes), else the key in
 * `DATA_DIR/secret.key`, generated with mode 0600 on first start and reused afterwards.
 */
export function loadMasterKey({ secretKey, dataDir }: MasterKeySource): MasterKey {
  if (secretKey !== undefined && secretKey.trim() !== '') {
    const key = parseMasterKey(secretKey);
    if (!key) {
      throw new MasterKeyError(
        `${SECRET_KEY_VARIABLE}: expected 32 bytes written as 64 hex characters or as base64/base64url (e.g. the output of 'openssl rand -hex 32')`,
      );
    }
    return key;
  }
  return readOrCreateKeyFile(path.join(dataDir, SECRET_KEY_FILE));
}

function readOrCreateKeyFile(file: string): MasterKey {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    return readKeyFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  // Write the key beside its final name, then link it into place: the link fails if another
  // process got there first, and nobody ever reads a half-written file.
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(temporary, `${randomBytes(KEY_BYTES).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  try {
    fs.linkSync(temporary, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  return readKeyFile(file);
}

function readKeyFile(file: string): MasterKey {
  const key = parseMasterKey(fs.readFileSync(file, 'utf8'));
  if (!key) {
    throw new MasterKeyError(`${file} does not hold a 32-byte key in hex; restore it, or set ${SECRET_KEY_VARIABLE}`);
  }
  return key;
}

/**
 * Encrypts `plain` under the master key. `context` (e.g. "bot_provider_keys:<bot id>:openai") is
 * authenticated but not stored: the secret only decrypts under the same context, so a stored value
 * copied to another row is useless.
 */
export function encryptSecret(key: MasterKey, plain: string, context = ''): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join(':');
}

/** Decrypts a value written by `encryptSecret` with the same context; throws `DecryptionError` otherwise. */
export function decryptSecret(key: MasterKey, stored: string, context = ''): string {
  const parts = stored.split(':');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new DecryptionError('The stored secret is not in a known format');
  const [, ivText, tagText, ciphertextText] = parts as [string, string, string, string];
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new DecryptionError('The stored secret is not in a known format');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(ciphertextText, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new DecryptionError();
  }
}

/** Encryption bound to one master key, for services that take it as a dependency. */
export interface SecretBox {
  encrypt(plain: string, context?: string): string;
  decrypt(stored: string, context?: string): string;
}

/** A SecretBox over `key`. */
export function createSecretBox(key: MasterKey): SecretBox {
  return {
    encrypt: (plain, context) => encryptSecret(key, plain, context),
    decrypt: (stored, context) => decryptSecret(key, stored, context),
  };
}
