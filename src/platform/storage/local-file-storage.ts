/** Files on the local disk under `root` (DATA_DIR/media): one instance's own, the default. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { assertStorageKey, type FileStorage } from './file-storage.ts';

const INCOMING = '.incoming';
/** A temporary file older than this was left by a crash; a live upload takes far less. */
const STALE_INCOMING_MS = 60 * 60 * 1000;

export function createLocalFileStorage(root: string): FileStorage {
  const incomingDir = path.join(root, INCOMING);

  // Keys are checked against their generated shape, so even a bug upstream cannot reach outside `root`.
  function pathOf(key: string): string {
    assertStorageKey(key);
    return path.join(root, ...key.split('/'));
  }

  void removeStaleIncoming(incomingDir);

  return {
    kind: 'local',
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

    async close() {},
  };
}

/** Deletes temporary files that a crashed upload left behind (best effort). */
export async function removeStaleIncoming(dir: string): Promise<void> {
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
