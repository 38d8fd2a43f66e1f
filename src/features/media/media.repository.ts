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

/** The bot's session's uploads as its visitor sees them again, oldest first. */
export async function sessionUploads(db: Db, botId: string, sessionId: string) {
  return db
    .selectFrom('media_files')
    .select(['id', 'file_name', 'mime_type', 'size_bytes', 'created_at'])
    .where('bot_id', '=', botId)
    .where('session_id', '=', sessionId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
