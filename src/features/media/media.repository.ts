/** Rows of `media_files`: one per upload, deleted with its session (foreign key cascade). */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { MediaFilesTable } from '../../db/schema.ts';

export type MediaFileRow = Selectable<MediaFilesTable>;

/** Records an upload. */
export async function insertFile(db: Db, row: MediaFileRow): Promise<void> {
  await db.insertInto('media_files').values(row).execute();
}

/** One upload by its id; the signed link it was reached by is its authority. */
export async function findFile(db: Db, fileId: string): Promise<MediaFileRow | undefined> {
  return db.selectFrom('media_files').selectAll().where('id', '=', fileId).executeTakeFirst();
}

/** A session's uploads, oldest first. */
export async function sessionFiles(db: Db, sessionId: string): Promise<MediaFileRow[]> {
  return db.selectFrom('media_files').selectAll().where('session_id', '=', sessionId).orderBy('created_at').orderBy('id').execute();
}
