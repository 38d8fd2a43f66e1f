/** Storage of bots. Every lookup is scoped to an account, except the by-id read that key-bound calls use. */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { BotsTable } from '../../db/schema.ts';
import type { Bot } from './bots.schemas.ts';

type BotRow = Selectable<BotsTable>;

/** Maps a stored row to the domain shape (booleans and JSON decoded here, once). */
export function botFromRow(row: BotRow): Bot {
  return {
    id: row.id,
    account_id: row.account_id,
    name: row.name,
    welcome_message: row.welcome_message,
    primary_color: row.primary_color,
    selected_model: row.selected_model,
    system_instructions: row.system_instructions,
    widget_style: row.widget_style,
    response_language: row.response_language,
    strict_mode: row.strict_mode === 1,
    lead_capture_enabled: row.lead_capture_enabled === 1,
    lead_fields: JSON.parse(row.lead_fields),
    calendar_scheduling_enabled: row.calendar_scheduling_enabled === 1,
    meeting_provider: row.meeting_provider,
    meeting_url: row.meeting_url,
    allowed_domains: JSON.parse(row.allowed_domains),
    paused: row.paused === 1,
    monthly_message_quota: row.monthly_message_quota,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Maps domain fields to stored columns (only the fields present). */
export function botToRow(bot: Partial<Bot>): Partial<BotRow> {
  const row: Partial<BotRow> = {};
  for (const [key, value] of Object.entries(bot)) {
    if (value === undefined) continue;
    if (typeof value === 'boolean') (row as Record<string, unknown>)[key] = value ? 1 : 0;
    else if (Array.isArray(value)) (row as Record<string, unknown>)[key] = JSON.stringify(value);
    else (row as Record<string, unknown>)[key] = value;
  }
  return row;
}

export async function insertBot(db: Db, bot: Bot): Promise<void> {
  await db.insertInto('bots').values(botToRow(bot) as BotRow).execute();
}

export async function findBot(db: Db, botId: string): Promise<Bot | undefined> {
  const row = await db.selectFrom('bots').selectAll().where('id', '=', botId).executeTakeFirst();
  return row && botFromRow(row);
}

export async function findAccountBot(db: Db, accountId: string, botId: string): Promise<Bot | undefined> {
  const row = await db.selectFrom('bots').selectAll().where('id', '=', botId).where('account_id', '=', accountId).executeTakeFirst();
  return row && botFromRow(row);
}

export async function listAccountBots(db: Db, accountId: string): Promise<Bot[]> {
  const rows = await db.selectFrom('bots').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').execute();
  return rows.map(botFromRow);
}

export async function updateAccountBot(db: Db, accountId: string, botId: string, changes: Partial<Bot>): Promise<boolean> {
  const result = await db
    .updateTable('bots')
    .set(botToRow(changes))
    .where('id', '=', botId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the bot; its keys go with it (foreign key cascade), its usage counters explicitly. */
export async function deleteAccountBot(db: Db, accountId: string, botId: string): Promise<boolean> {
  const result = await db.deleteFrom('bots').where('id', '=', botId).where('account_id', '=', accountId).executeTakeFirst();
  await db.deleteFrom('usage_daily').where('bot_id', '=', botId).execute();
  return Number(result.numDeletedRows) > 0;
}
