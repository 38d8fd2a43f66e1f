/**
 * API keys: minting (shown once, stored as a hash), listing, narrowing, revocation, and resolving
 * a presented key to its principal. Resolved keys are cached; every change is announced over the
 * bus so that a revoked key stops working at once on every instance.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Bus } from '../../platform/bus.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../platform/errors.ts';
import { CREDENTIAL_PREFIX, generateCredential, hashCredential } from '../../platform/secrets.ts';
import { hasScope, tabsOfMember, type ApiKeyPrincipal, type Principal, type Scope } from '../../platform/auth/principal.ts';
import type { CredentialResolver } from '../../platform/auth/auth.ts';
import { startPeriodicFlush } from '../../platform/periodic-flush.ts';
import { BOT_CHANGED, type BotChanged } from '../bots/bots.service.ts';
import { CREDENTIAL_ROLES } from '../auth/roles.ts';
import { MEMBER_CHANGED, type MemberChanged } from '../team/team.service.ts';
import { compileAllowlist, isIpOrCidr } from './ip-allowlist.ts';
import type { ApiKeyCreate, ApiKeyPatch } from './keys.schemas.ts';
import * as repo from './keys.repository.ts';

const KEYS_CHANGED = 'keys.changed';
const DEFAULT_SCOPES: Scope[] = ['chat', 'read'];
const VISIBLE_PREFIX_LENGTH = CREDENTIAL_PREFIX.apiKey.length + 6;
const CACHE_LIMIT = 50_000;
const CACHE_TTL_MS = 60_000;

export interface KeyServiceDeps {
  db: Db;
  clock: Clock;
  bus: Bus;
  flushMs: number;
  log?: FastifyBaseLogger;
}

export type KeyService = ReturnType<typeof createKeyService>;

/**
 * Who is minting a key: a dashboard user (`scopes` null, any scope) or a credential, which hands out
 * only scopes it holds; `makerId` is the user the new key will act for.
 */
export interface KeyGranter {
  scopes: readonly Scope[] | null;
  makerId: string | null;
}


export function createKeyService({ db, clock, bus, flushMs, log }: KeyServiceDeps) {
  const byHash = new Map<string, ApiKeyPrincipal>();
  const lastUsed = new Map<string, string>();
  const allowlists = new WeakMap<Principal, (ip: string) => boolean>();
  const loadedAt = new WeakMap<Principal, number>();

  /** Reads an active key by its hash into the cache. */
  async function loadKey(hash: string): Promise<ApiKeyPrincipal | null> {
    const key = await repo.findActiveKeyByHash(db, hash);
    if (!key) return null;
    // A key lives as long as its maker may manage keys: removing a member or making them an agent ends it.
    if (key.created_by && (!key.maker || !CREDENTIAL_ROLES.includes(key.maker.role))) {
      throw new UnauthorizedError('The member who created this API key is no longer an owner or admin of the account');
    }
    const principal: ApiKeyPrincipal = {
      kind: 'api_key',
      credentialId: key.id,
      keyId: key.id,
      botId: key.bot_id,
      accountId: key.account_id,
      scopes: key.scopes,
      makerId: key.created_by,
      memberTabs: key.maker ? tabsOfMember(key.maker.role, key.maker.tabs) : null,
    };
    allowlists.set(principal, compileAllowlist(key.allowed_ips));
    loadedAt.set(principal, clock.now());
    if (byHash.size >= CACHE_LIMIT) byHash.clear();
    byHash.set(hash, principal);
    return principal;
  }

  function evict(predicate: (key: ApiKeyPrincipal) => boolean): void {
    for (const [hash, key] of byHash) if (predicate(key)) byHash.delete(hash);
  }
  bus.subscribe(KEYS_CHANGED, (message) => evict((k) => k.keyId === (message as { keyId: string }).keyId));
  bus.subscribe(BOT_CHANGED, (message) => {
    const change = message as BotChanged;
    if (change.deleted) evict((k) => k.botId === change.botId);
  });
  bus.subscribe(MEMBER_CHANGED, (message) => {
    const change = message as MemberChanged;
    evict((k) => k.makerId === change.userId && k.accountId === change.accountId);
  });

  const lastUsedFlush = startPeriodicFlush(
    'api key last use',
    flushMs,
    async () => {
      if (lastUsed.size === 0) return;
      const batch = new Map(lastUsed);
      lastUsed.clear();
      try {
        await db.transaction().execute((trx) => repo.touchKeys(trx, batch));
      } catch (err) {
        // Back unless a newer use arrived meanwhile; the periodic flush retries.
        for (const [keyId, at] of batch) if (!lastUsed.has(keyId)) lastUsed.set(keyId, at);
        throw err;
      }
    },
    log,
  );

  async function announce(keyId: string): Promise<void> {
    evict((k) => k.keyId === keyId);
    await bus.publish(KEYS_CHANGED, { keyId });
  }

  function checkIps(allowedIps: readonly string[]): void {
    const bad = allowedIps.find((entry) => !isIpOrCidr(entry));
    if (bad !== undefined) throw new ValidationError(`field 'allowed_ips' has '${bad}', which is not an IP address or CIDR range`);
  }

  /** A key may only hand out scopes it holds itself. */
  function checkWithin(requested: readonly Scope[], granterScopes: readonly Scope[] | null): void {
    if (!granterScopes) return;
    const beyond = requested.find((scope) => !hasScope(granterScopes, scope));
    if (beyond) throw new ForbiddenError(`Cannot grant the '${beyond}' scope: the calling credential does not hold it`);
  }

  async function requireKey(botId: string, keyId: string) {
    const key = await repo.findBotKey(db, botId, keyId);
    if (!key) throw new NotFoundError('API key not found');
    return key;
  }

  return {
    /** Mints a key for a bot, acting for `granter.makerId`. */
    async create(bot: { id: string; account_id: string }, input: ApiKeyCreate, granter: KeyGranter) {
      const scopes = input.scopes ?? DEFAULT_SCOPES;
      const allowedIps = input.allowed_ips ?? [];
      checkIps(allowedIps);
      checkWithin(scopes, granter.scopes);
      const secret = generateCredential(CREDENTIAL_PREFIX.apiKey);
      const key: repo.StoredKey = {
        id: randomUUID(),
        name: input.name,
        prefix: secret.slice(0, VISIBLE_PREFIX_LENGTH),
        scopes,
        allowed_ips: allowedIps,
        bot_id: bot.id,
        account_id: bot.account_id,
        created_at: isoAt(clock.now()),
        last_used_at: null,
        revoked_at: null,
        created_by: granter.makerId,
      };
      await repo.insertKey(db, { ...key, key_hash: hashCredential(secret) });
      return { ...key, key: secret };
    },

    /** Every key of the bot, revoked ones included, newest first; never a secret. */
    async list(botId: string) {
      await lastUsedFlush.flushNow();
      return repo.listBotKeys(db, botId);
    },

    /** The bot a key belongs to, if the key is in this account. */
    async botOfAccountKey(accountId: string, keyId: string): Promise<string> {
      const key = await repo.findAccountKey(db, accountId, keyId);
      if (!key) throw new NotFoundError('API key not found');
      return key.bot_id;
    },

    async update(botId: string, keyId: string, changes: ApiKeyPatch, granterScopes: readonly Scope[] | null) {
      const key = await requireKey(botId, keyId);
      if (key.revoked_at) throw new ConflictError('API key is revoked');
      if (changes.allowed_ips) checkIps(changes.allowed_ips);
      if (changes.scopes) checkWithin(changes.scopes, granterScopes);
      await repo.updateKey(db, botId, keyId, changes);
      await announce(keyId);
      return requireKey(botId, keyId);
    },

    /** Revokes permanently; the key answers 401 from the next request on. */
    async revoke(botId: string, keyId: string): Promise<void> {
      const key = await requireKey(botId, keyId);
      if (!key.revoked_at) await repo.updateKey(db, botId, keyId, { revoked_at: isoAt(clock.now()) });
      await announce(keyId);
    },

    /** Notes that a key was used by an admitted request (written in the background). */
    markUsed(keyId: string): void {
      lastUsed.set(keyId, isoAt(clock.now()));
    },

    /** Flushes buffered last-use times (before reading them, and on shutdown). */
    flush: () => lastUsedFlush.flushNow(),
    close: () => lastUsedFlush.stop(),

    /** The credential resolver for `parley_sk_…` keys. */
    resolver: {
      matches: (credential: string) => credential.startsWith(CREDENTIAL_PREFIX.apiKey),
      invalidDetail: 'Invalid or revoked API key',
      resolve(credential: string): Principal | null | Promise<Principal | null> {
        const hash = hashCredential(credential);
        const cached = byHash.get(hash);
        // Changes arrive over the bus at once; re-reading now and then bounds the harm of a lost message.
        if (cached && clock.now() - (loadedAt.get(cached) ?? 0) <= CACHE_TTL_MS) return cached;
        byHash.delete(hash);
        return loadKey(hash);
      },

      authorize(principal: Principal, request: FastifyRequest): void {
        if (principal.kind !== 'api_key') return;
        const allows = allowlists.get(principal);
        if (allows && !allows(request.ip)) {
          throw new ForbiddenError(`Requests from ${request.ip} are not allowed for this API key`);
        }
      },
    } satisfies CredentialResolver,
  };
}
