/**
 * Where the service keeps files (chat media, and anything later features store), behind one small
 * interface with three backends chosen by `PARLEY_STORAGE`: the local disk (`local`, the default),
 * an S3-compatible object store (`s3`), or the database itself (`database`). Files stream in and
 * out; none is held whole in memory.
 *
 * Keys are chosen by the service (`<bot>/<session>/<file>` for media), never by a client, and are
 * checked against a strict shape anyway. Files sharing a key prefix (a session's, a bot's) are
 * removed together.
 */
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { StorageConfig } from '../../config/config.ts';
import type { Db } from '../../db/database.ts';
import type { DialectSeam } from '../../db/dialect.ts';
import { DomainError } from '../errors.ts';
import { createLocalFileStorage } from './local-file-storage.ts';
import { createS3FileStorage } from './s3-file-storage.ts';
import { createDatabaseFileStorage } from './database-file-storage.ts';

/** A stored file opened for reading. */
export interface StoredFile {
  stream: Readable;
  sizeBytes: number;
}

export interface FileStorage {
  /** Which backend this is, for logs and health. */
  readonly kind: StorageConfig['kind'];
  /**
   * Keeps a finished temporary file (under `incomingDir`) as `key`, whole or not at all; the
   * temporary file is gone afterwards either way.
   */
  put(key: string, temporaryPath: string): Promise<void>;
  /** Opens a stored file; undefined when there is none. */
  open(key: string): Promise<StoredFile | undefined>;
  /** Deletes every file whose key is `prefix` or starts with `prefix/`. */
  removeAll(prefix: string): Promise<void>;
  /** A local directory (under DATA_DIR) that uploads stream into before they are checked and kept. */
  readonly incomingDir: string;
  close(): Promise<void>;
}

/** The store cannot be reached or did not answer in time: 503, and nothing half-written. */
export class StorageUnavailableError extends DomainError {
  override readonly status = 503;
  constructor(action: string, cause?: unknown) {
    super(`File storage is unavailable: could not ${action}. Try again shortly.`);
    if (cause !== undefined) this.cause = cause;
  }
}

const SEGMENT = '[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}';
const KEY = new RegExp(`^${SEGMENT}(?:/${SEGMENT}){0,7}$`);

/** Throws unless `key` has the shape the service generates (no `..`, no leading dot, no empty segment). */
export function assertStorageKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((segment) => segment === '..' || segment === '.')) {
    throw new Error(`Invalid storage key '${key}'`);
  }
}

export interface FileStorageDeps {
  dataDir: string;
  db: Db;
  seam: DialectSeam;
}

export function createFileStorage(config: StorageConfig, deps: FileStorageDeps): FileStorage {
  const incomingDir = path.join(deps.dataDir, 'media', '.incoming');
  switch (config.kind) {
    case 'local':
      return createLocalFileStorage(path.join(deps.dataDir, 'media'));
    case 's3':
      return createS3FileStorage(config, incomingDir);
    case 'database':
      return createDatabaseFileStorage({ db: deps.db, seam: deps.seam, incomingDir, timeoutMs: config.timeoutMs });
  }
}
