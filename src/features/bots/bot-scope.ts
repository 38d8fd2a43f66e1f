/**
 * Which bot a `/api/v1/*` call acts on: an API key's own bot, or for an OAuth token the bot named
 * by `X-Bot-Id` or `?bot_id=` (which must belong to the token's account).
 */
import { isUuid } from '../../platform/schemas.ts';
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../../platform/auth/auth.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { Tab } from '../../platform/auth/principal.ts';
import { assertTab } from '../auth/roles.ts';
import type { Bot } from './bots.schemas.ts';
import type { BotService } from './bots.service.ts';

export interface BotScope {
  bot: Bot;
  /** The API key id, when the caller is a key (usage counters are per key). */
  keyId: string | null;
}

/** Resolves the bot of a bot-scoped call (paths without `{bot_id}`). */
export async function botScopeOf(request: FastifyRequest, bots: BotService): Promise<BotScope> {
  const principal = principalOf(request);
  if (principal.kind === 'api_key') return { bot: await bots.get(principal.botId), keyId: principal.keyId };
  if (principal.kind === 'oauth') {
    const header = request.headers['x-bot-id'];
    const query = (request.query as Record<string, unknown> | undefined)?.bot_id;
    const botId = typeof header === 'string' ? header : typeof query === 'string' ? query : undefined;
    if (!botId) throw new ValidationError("header 'X-Bot-Id' (or query parameter 'bot_id') is required with an OAuth token");
    if (!isUuid(botId)) throw new NotFoundError('Bot not found');
    const bot = await bots.getForAccount(principal.accountId, botId.toLowerCase());
    request.auditBotId = bot.id;
    return { bot, keyId: null };
  }
  throw new ForbiddenError('This endpoint needs an API key or an OAuth token');
}

/** Resolves `{bot_id}` of a path for an API key (its own bot only) or an OAuth token (its account's bots). */
export async function pathBotOf(request: FastifyRequest, botId: string, bots: BotService): Promise<Bot> {
  const principal = principalOf(request);
  if (principal.kind === 'api_key') {
    if (principal.botId !== botId) throw new ForbiddenError('This API key belongs to a different bot');
    return bots.get(botId);
  }
  if (principal.kind === 'oauth' || principal.kind === 'dashboard') {
    const bot = await bots.getForAccount(principal.accountId, botId);
    request.auditBotId = bot.id;
    return bot;
  }
  throw new ForbiddenError('This endpoint needs an API key or an OAuth token');
}

/**
 * Resolves `{bot_id}` of a dashboard path for the signed-in member: 403 without `tab` (when the
 * route needs one), 404 for another account's bot.
 */
export async function dashboardBotOf(request: FastifyRequest, botId: string, bots: BotService, tab?: Tab): Promise<Bot> {
  const user = principalOf(request, 'dashboard');
  if (tab) assertTab(user, tab);
  return bots.getForAccount(user.accountId, botId);
}
