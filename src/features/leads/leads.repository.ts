/** Storage of leads and of each session's lead-capture progress. */
import { sql, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { LeadsTable } from '../../db/schema.ts';

export type LeadRow = Selectable<LeadsTable>;

export const findLeadOfSession = (db: Db, sessionRowId: string) => db.selectFrom('leads').selectAll().where('session_row_id', '=', sessionRowId).executeTakeFirst();

export const insertLead = (db: Db, row: LeadRow) => db.insertInto('leads').values(row).execute();

export async function updateLead(db: Db, id: string, changes: Partial<Pick<LeadRow, 'name' | 'email' | 'phone' | 'extra' | 'updated_at'>>) {
  await db.updateTable('leads').set(changes).where('id', '=', id).execute();
}

export const sessionLeadState = (db: Db, sessionRowId: string) =>
  db.selectFrom('chat_sessions').select(['lead_state', 'visitor_timezone']).where('id', '=', sessionRowId).executeTakeFirst();

export async function saveLeadState(db: Db, sessionRowId: string, state: string) {
  await db.updateTable('chat_sessions').set({ lead_state: state }).where('id', '=', sessionRowId).execute();
}

/** `q` matches name, email or phone, in any case; `%` and `_` in it are literal. */
function matching(db: Db, botId: string, q?: string) {
  let query = db.selectFrom('leads').where('bot_id', '=', botId);
  if (q) {
    const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or(['name', 'email', 'phone'].map((column) => sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`)));
  }
  return query;
}

export async function listLeads(db: Db, botId: string, page: { limit: number; offset: number; q?: string }) {
  const [rows, count] = await Promise.all([
    matching(db, botId, page.q).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    matching(db, botId, page.q).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
