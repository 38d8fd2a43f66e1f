/**
 * Files in the service's own database (`PARLEY_STORAGE=database`): for small deployments that
 * want one thing to back up. A file is a row and its bytes in chunks of 256 KiB, written in one
 * transaction (whole or not at all) and read a chunk at a time, so no file is held whole in memory.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DialectSeam } from '../../db/dialect.ts';
import { assertStorageKey, StorageUnavailableError, type FileStorage } from './file-storage.ts';
import { removeStaleIncoming } from './local-file-storage.ts';

export const CHUNK_BYTES = 256 * 1024;

export function createDatabaseFileStorage(deps: { db: Db; seam: DialectSeam; incomingDir: string; timeoutMs: number }): FileStorage {
  const { db, incomingDir } = deps;

  void removeStaleIncoming(incomingDir);

  /** Deletes the files `key` or under `key/`; exact, case-sensitive comparison on both databases. */
  function whereUnder(prefix: string) {
    const under = `${prefix}/`;
    return sql<boolean>`(key = ${prefix} or substr(key, 1, ${under.length}) = ${under})`;
  }

  return {
    kind: 'database',
    incomingDir,

    async put(key, temporaryPath) {
      assertStorageKey(key);
      try {
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('stored_files').where('key', '=', key).execute();
          await trx.insertInto('stored_files').values({ key, size_bytes: 0, chunk_count: 0, created_at: new Date().toISOString() }).execute();
          let seq = 0;
          let size = 0;
          for await (const chunk of fs.createReadStream(temporaryPath, { highWaterMark: CHUNK_BYTES })) {
            const data = chunk as Buffer;
            await trx.insertInto('stored_file_chunks').values({ key, seq, data }).execute();
            seq += 1;
            size += data.length;
          }
          await trx.updateTable('stored_files').set({ size_bytes: size, chunk_count: seq }).where('key', '=', key).execute();
        });
      } catch (err) {
        throw new StorageUnavailableError('store the file', err);
      } finally {
        await fsp.rm(temporaryPath, { force: true });
      }
    },

    async open(key) {
      assertStorageKey(key);
      const file = await db.selectFrom('stored_files').select(['size_bytes', 'chunk_count']).where('key', '=', key).executeTakeFirst();
      if (!file) return undefined;
      const chunks = Number(file.chunk_count);
      async function* readChunks() {
        for (let seq = 0; seq < chunks; seq++) {
          const row = await db.selectFrom('stored_file_chunks').select('data').where('key', '=', key).where('seq', '=', seq).executeTakeFirst();
          // Removed while being read (the session was cleared): end short; the client sees a cut body.
          if (!row) throw new Error(`stored file '${key}' lost chunk ${seq} while being read`);
          yield Buffer.from(row.data);
        }
      }
      return { stream: Readable.from(readChunks(), { objectMode: false }), sizeBytes: Number(file.size_bytes) };
    },

    async removeAll(prefix) {
      assertStorageKey(prefix);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('stored_file_chunks').where(whereUnder(prefix)).execute();
        await trx.deleteFrom('stored_files').where(whereUnder(prefix)).execute();
      });
    },

    async close() {},
  };
}
