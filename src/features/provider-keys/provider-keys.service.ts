/**
 * Bring-your-own provider keys: stored encrypted (AES-256-GCM under the master key), listed
 * without the key, and decrypted only for the answer engine.
 */
import type { Db } from '../../db/database.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import type { SecretBox } from '../../platform/encryption.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { KeyProvider } from '../answers/providers/provider-routing.ts';
import type { ProviderKeyView } from './provider-keys.schemas.ts';
import * as repo from './provider-keys.repository.ts';

export interface ProviderKeyServiceDeps {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
}

export type ProviderKeyService = ReturnType<typeof createProviderKeyService>;

/** The authenticated context of a stored key: a row copied to another bot or provider does not decrypt. */
export function providerKeyContext(botId: string, provider: KeyProvider): string {
  return `bot_provider_keys:${botId}:${provider}`;
}

export function createProviderKeyService({ db, clock, secrets }: ProviderKeyServiceDeps) {
  return {
    /** Which providers the bot has a key for. */
    list: (botId: string): Promise<ProviderKeyView[]> => repo.listProviderKeys(db, botId),

    /** Stores (or replaces) the bot's key for `provider`; the answer carries no key. */
    async put(botId: string, provider: KeyProvider, apiKey: string): Promise<ProviderKeyView> {
      const key = apiKey.trim();
      if (!key) throw new ValidationError("field 'api_key' must not be blank");
      if (/[\s\u0000-\u001f\u007f]/.test(key)) throw new ValidationError("field 'api_key' must not contain spaces or control characters");
      const created_at = isoAt(clock.now());
      await repo.upsertProviderKey(db, { bot_id: botId, provider, encrypted_key: secrets.encrypt(key, providerKeyContext(botId, provider)), created_at });
      return { provider, created_at };
    },

    /** Removes the bot's key for `provider`; the bot falls back to the shared pool, then to parley-local. */
    async remove(botId: string, provider: KeyProvider): Promise<void> {
      if (!(await repo.deleteProviderKey(db, botId, provider))) throw new NotFoundError(`This bot has no ${provider} key`);
    },

    /** The bot's own key for `provider`, decrypted, or undefined. Throws `DecryptionError` when the master key changed. */
    async keyFor(botId: string, provider: KeyProvider): Promise<string | undefined> {
      const row = await repo.findProviderKey(db, botId, provider);
      return row && secrets.decrypt(row.encrypted_key, providerKeyContext(botId, provider));
    },
  };
}
