/**
 * Widget public access (interface.md section 5): the bot id is the credential, and the browser's
 * Origin must be one of the bot's `allowed_domains` (exact host or `*.` wildcard; empty = any).
 */
import { isUuid } from '../../platform/schemas.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthRequirement, CredentialResolver } from '../../platform/auth/auth.ts';
import type { WidgetPrincipal } from '../../platform/auth/principal.ts';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../platform/errors.ts';
import { principalOf } from '../../platform/auth/auth.ts';
import type { BotService } from '../bots/bots.service.ts';

/** Widget endpoints: a bot id (bearer, or `bot_id` in the body or query) or an API key with `chat`. */
export const widgetAccess: AuthRequirement = { accepts: ['widget', 'api_key'], scope: 'chat', credentialField: 'bot_id' };

/** Widget endpoints that only the bot's own widget calls (no API key). */
export const widgetOnlyAccess: AuthRequirement = { accepts: ['widget'], credentialField: 'bot_id' };

/** True when `origin` (a browser Origin header) is allowed by the host patterns; an empty list allows any. */
export function isOriginAllowed(origin: string | undefined, allowedDomains: readonly string[]): boolean {
  if (allowedDomains.length === 0) return true;
  if (!origin) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  const hostWithPort = url.port ? `${host}:${url.port}` : host;
  return allowedDomains.some((entry) => {
    const pattern = entry.toLowerCase();
    const candidate = pattern.includes(':') ? hostWithPort : host;
    if (pattern.startsWith('*.')) return candidate.endsWith(pattern.slice(1)) && candidate.length > pattern.length - 1;
    return candidate === pattern;
  });
}

/** Resolves bot ids to widget principals and checks the Origin against the bot's allowed domains. */
export function widgetResolver(bots: BotService): CredentialResolver {
  return {
    matches: (credential) => isUuid(credential),
    async resolve(credential) {
      try {
        const bot = await bots.get(credential.toLowerCase());
        return { kind: 'widget', botId: bot.id, accountId: bot.account_id, allowedDomains: bot.allowed_domains } satisfies WidgetPrincipal;
      } catch (err) {
        if (err instanceof NotFoundError) return null;
        throw err;
      }
    },
    invalidDetail: 'Unknown bot id',
    authorize(principal, request) {
      if (principal.kind !== 'widget') return;
      const origin = request.headers.origin;
      if (!isOriginAllowed(origin, principal.allowedDomains)) {
        throw new ForbiddenError(origin ? `Origin '${origin}' is not allowed for this bot` : "This bot only accepts requests with an allowed 'Origin' header");
      }
    },
  };
}

/**
 * CORS for widget responses. The bot's own check (`authorize`) has already refused other origins,
 * so a widget response may name the caller's origin.
 */
export function allowWidgetOrigin(request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  if (!origin) return;
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-expose-headers', 'x-request-id, retry-after');
  reply.header('vary', 'Origin');
}

/**
 * Who called a widget endpoint: the bot, the API key when a key was the credential, and whether it is
 * a visitor (the public bot id alone), who reaches only the sessions visitors opened.
 */
export function widgetCallerOf(request: FastifyRequest): { botId: string; keyId: string | null; asVisitor: boolean } {
  const principal = principalOf(request);
  if (principal.kind === 'widget') return { botId: principal.botId, keyId: null, asVisitor: true };
  if (principal.kind === 'api_key') return { botId: principal.botId, keyId: principal.keyId, asVisitor: false };
  throw new UnauthorizedError('Widget access needs a bot id or an API key');
}
