/** Creating, reading, changing and deleting bots; bot reads are cached and invalidated over the bus. */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { ProviderPool } from '../../config/config.ts';
import type { Bus } from '../../platform/bus.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { DashboardBotPatchSchema, type Bot, type DashboardBotCreate, type DashboardBotPatch } from './bots.schemas.ts';
import * as repo from './bots.repository.ts';

/** Published whenever a bot changes or is deleted; caches of bot-derived data listen to it. */
export const BOT_CHANGED = 'bots.changed';
export interface BotChanged {
  botId: string;
  deleted: boolean;
}

export const DEFAULT_WELCOME_MESSAGE = 'Hi! How can I help you today?';

/** The model a new bot gets: the first configured provider's, else the embedded engine. */
export function accountDefaultModel(providers: ProviderPool): string {
  if (providers.openaiApiKey) return 'gpt-4o-mini';
  if (providers.anthropicApiKey) return 'claude-3-5-haiku-latest';
  if (providers.googleApiKey) return 'gemini-2.0-flash';
  if (providers.mistralApiKey) return 'mistral-small-latest';
  return 'parley-local';
}

export interface BotServiceDeps {
  db: Db;
  clock: Clock;
  bus: Bus;
  defaultModel: string;
  defaultMonthlyQuota: number;
}

export type BotService = ReturnType<typeof createBotService>;

const CACHE_LIMIT = 10_000;
const CACHE_TTL_MS = 60_000;
/** The settings a PATCH may change (the dashboard's, which include the public API's). */
const PATCHABLE = new Set(Object.keys(DashboardBotPatchSchema.properties));

export function createBotService({ db, clock, bus, defaultModel, defaultMonthlyQuota }: BotServiceDeps) {
  const cache = new Map<string, { bot: Bot; loadedAt: number }>();
  bus.subscribe(BOT_CHANGED, (message) => cache.delete((message as BotChanged).botId));

  async function announce(botId: string, deleted: boolean): Promise<void> {
    cache.delete(botId);
    await bus.publish(BOT_CHANGED, { botId, deleted } satisfies BotChanged);
  }

  async function requireAccountBot(accountId: string, botId: string): Promise<Bot> {
    const bot = await repo.findAccountBot(db, accountId, botId);
    if (!bot) throw new NotFoundError('Bot not found');
    return bot;
  }

  return {
    async create(accountId: string, input: DashboardBotCreate): Promise<Bot> {
      const now = isoAt(clock.now());
      const bot: Bot = {
        id: randomUUID(),
        account_id: accountId,
        name: input.name,
        welcome_message: input.welcome_message ?? DEFAULT_WELCOME_MESSAGE,
        primary_color: input.primary_color ?? '#2563eb',
        selected_model: input.selected_model ?? defaultModel,
        system_instructions: input.system_instructions ?? '',
        widget_style: input.widget_style ?? 'classic',
        response_language: input.response_language ?? '',
        strict_mode: input.strict_mode ?? true,
        lead_capture_enabled: input.lead_capture_enabled ?? false,
        lead_fields: input.lead_fields ?? ['name', 'email', 'phone'],
        calendar_scheduling_enabled: input.calendar_scheduling_enabled ?? false,
        meeting_provider: input.meeting_provider ?? null,
        meeting_url: input.meeting_url ?? null,
        allowed_domains: input.allowed_domains ?? [],
        paused: input.paused ?? false,
        monthly_message_quota: input.monthly_message_quota ?? defaultMonthlyQuota,
        created_at: now,
        updated_at: now,
      };
      await repo.insertBot(db, bot);
      return bot;
    },

    list: (accountId: string) => repo.listAccountBots(db, accountId),

    /** A bot of this account; another account's bot is "not found". */
    getForAccount: requireAccountBot,

    /** A bot by id, from the cache when possible (key-bound and widget calls). */
    async get(botId: string): Promise<Bot> {
      const cached = cache.get(botId);
      // Changes arrive over the bus at once; re-reading now and then bounds the harm of a lost message.
      if (cached && clock.now() - cached.loadedAt <= CACHE_TTL_MS) return cached.bot;
      const bot = await repo.findBot(db, botId);
      if (!bot) throw new NotFoundError('Bot not found');
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(botId, { bot, loadedAt: clock.now() });
      return bot;
    },

    /** Changes the settings present in `changes`; anything else in it (a body's unknown fields, `id`, `account_id`) is ignored. */
    async update(accountId: string, botId: string, changes: DashboardBotPatch): Promise<Bot> {
      const settings = Object.fromEntries(Object.entries(changes).filter(([name]) => PATCHABLE.has(name)));
      const updated = await repo.updateAccountBot(db, accountId, botId, { ...settings, updated_at: isoAt(clock.now()) });
      if (!updated) throw new NotFoundError('Bot not found');
      await announce(botId, false);
      return requireAccountBot(accountId, botId);
    },

    /** Deletes the bot and everything of it; its keys stop working at once. */
    async remove(accountId: string, botId: string): Promise<void> {
      const deleted = await db.transaction().execute((trx) => repo.deleteAccountBot(trx, accountId, botId));
      if (!deleted) throw new NotFoundError('Bot not found');
      await announce(botId, true);
    },
  };
}
