/**
 * Where uploaded files are kept, behind a small interface so that a shared store (S3 and the like)
 * can replace the local disk. Keys are generated ids (`<bot>/<session>/<file>`), never a name a
 * client chose, so no upload can name a path; a session's or a bot's files share a key prefix and
 * go together.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** A stored file opened for reading. */
export interface StoredMedia {
  stream: Readable;
  sizeBytes: number;
}

/** The store of uploaded files. */
export interface MediaStorage {
  /** Keeps a finished temporary file (under `incomingDir`) as `key`; the temporary file is gone afterwards. */
  put(key: string, temporaryPath: string): Promise<void>;
  /** Opens a stored file; undefined when it is gone. */
  open(key: string): Promise<StoredMedia | undefined>;
  /** Deletes every file whose key starts with `prefix` (a bot's `<bot>`, a session's `<bot>/<session>`). */
  removeAll(prefix: string): Promise<void>;
  /** A local directory that uploads are streamed into before they are checked and kept. */
  readonly incomingDir: string;
}

const ID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const KEY = new RegExp(`^${ID}(?:/${ID}){0,2}$`);
const INCOMING = '.incoming';
/** A temporary file older than this was left by a crash; a live upload takes far less. */
const STALE_INCOMING_MS = 60 * 60 * 1000;

/** The storage key of one file of a session. */
export function mediaKey(botId: string, sessionId: string, fileId: string): string {
  return `${botId}/${sessionId}/${fileId}`;
}

/** The key prefix of all of a session's files. */
export function sessionPrefix(botId: string, sessionId: string): string {
  return `${botId}/${sessionId}`;
}

/** Files on the local disk under `root` (DATA_DIR/media), one directory per bot and session. */
export function createLocalMediaStorage(root: string): MediaStorage {
  const incomingDir = path.join(root, INCOMING);

  // Keys are checked against their generated shape, so even a bug upstream cannot reach outside `root`.
  function pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`Invalid media storage key '${key}'`);
    return path.join(root, ...key.split('/'));
  }

  void removeStaleIncoming(incomingDir);

  return {
    incomingDir,

    async put(key, temporaryPath) {
      const target = pathOf(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      // Same file system (both under DATA_DIR/media): the file appears whole or not at all.
      await fs.rename(temporaryPath, target);
    },

    async open(key) {
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(pathOf(key), 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
      try {
        const { size } = await handle.stat();
        return { stream: handle.createReadStream(), sizeBytes: size };
      } catch (err) {
        await handle.close();
        throw err;
      }
    },

    async removeAll(prefix) {
      await fs.rm(pathOf(prefix), { recursive: true, force: true });
    },
  };
}

/** Deletes temporary files that a crashed upload left behind (best effort). */
async function removeStaleIncoming(dir: string): Promise<void> {
  try {
    const cutoff = Date.now() - STALE_INCOMING_MS;
    for (const name of await fs.readdir(dir)) {
      const file = path.join(dir, name);
      const stat = await fs.stat(file).catch(() => undefined);
      if (stat && stat.mtimeMs < cutoff) await fs.rm(file, { force: true });
    }
  } catch {
    // No directory yet, or nothing to do.
  }
}
