/**
 * The models a bot can be set to: `parley-local`, the well-known chat models of each provider this
 * deployment can reach (a shared pool key from the environment, or the bot's own key), and what an
 * OpenAI-compatible server at OPENAI_BASE_URL says it serves (`GET {base}/models`).
 */
import type { ProviderPool } from '../../config/config.ts';
import { accountDefaultModel } from '../bots/bots.service.ts';
import { KEY_PROVIDERS, LOCAL_MODEL, type KeyProvider, type ModelProvider } from '../answers/providers/provider-routing.ts';

/** Chat models each provider offers, best known first; any other id can still be typed in the dashboard. */
export const PROVIDER_MODELS: Record<KeyProvider, readonly string[]> = {
  openai: ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini', 'gpt-4.1', 'gpt-4.1-nano', 'o4-mini'],
  anthropic: ['claude-3-5-haiku-latest', 'claude-sonnet-4-0', 'claude-opus-4-0'],
  google: ['gemini-2.0-flash', 'gemini-2.5-flash', 'gemini-2.5-pro'],
  mistral: ['mistral-small-latest', 'mistral-medium-latest', 'mistral-large-latest', 'open-mistral-nemo'],
};

/** Where a model's key comes from: none needed, the shared pool, or the bot's own key. */
export type ModelKeySource = 'none' | 'pool' | 'bot';

export interface ModelChoice {
  id: string;
  provider: ModelProvider;
  key: ModelKeySource;
}

const COMPATIBLE_TIMEOUT_MS = 3_000;
const COMPATIBLE_CACHE_MS = 60_000;

export interface ModelServiceDeps {
  pool: ProviderPool;
  /** Which providers a bot holds its own key for. */
  botKeyProviders(botId: string): Promise<KeyProvider[]>;
  now(): number;
  fetch?: typeof fetch;
}

export type ModelService = ReturnType<typeof createModelService>;

export function createModelService({ pool, botKeyProviders, now, fetch: fetchImpl = fetch }: ModelServiceDeps) {
  const poolKey: Record<KeyProvider, boolean> = {
    openai: Boolean(pool.openaiApiKey || pool.openaiBaseUrl),
    anthropic: Boolean(pool.anthropicApiKey),
    google: Boolean(pool.googleApiKey),
    mistral: Boolean(pool.mistralApiKey),
  };
  let compatible: { at: number; ids: Promise<string[]> } | undefined;

  /** The model ids the OpenAI-compatible server lists, cached for a minute; none when it does not answer. */
  function compatibleModels(): Promise<string[]> {
    const base = pool.openaiBaseUrl;
    if (!base) return Promise.resolve([]);
    if (compatible && now() - compatible.at < COMPATIBLE_CACHE_MS) return compatible.ids;
    const ids = (async () => {
      try {
        const headers: Record<string, string> = pool.openaiApiKey ? { authorization: `Bearer ${pool.openaiApiKey}` } : {};
        const res = await fetchImpl(`${base.replace(/\/+$/, '')}/models`, { headers, signal: AbortSignal.timeout(COMPATIBLE_TIMEOUT_MS) });
        if (!res.ok) return [];
        const body = (await res.json()) as { data?: Array<{ id?: unknown }> };
        return (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 100);
      } catch {
        return [];
      }
    })();
    compatible = { at: now(), ids };
    return ids;
  }

  return {
    /** The choices for a bot (its own keys included) or, without one, for the deployment. */
    async list(botId?: string): Promise<{ default_model: string; models: ModelChoice[] }> {
      const own = new Set(botId ? await botKeyProviders(botId) : []);
      const models: ModelChoice[] = [{ id: LOCAL_MODEL, provider: 'local', key: 'none' }];
      for (const provider of KEY_PROVIDERS) {
        const key: ModelKeySource | undefined = own.has(provider) ? 'bot' : poolKey[provider] ? 'pool' : undefined;
        if (!key) continue;
        // With OPENAI_BASE_URL, "OpenAI" is whatever server it names: its own list stands in.
        if (provider === 'openai' && pool.openaiBaseUrl) {
          for (const id of await compatibleModels()) models.push({ id, provider: 'openai-compatible', key });
          continue;
        }
        for (const id of PROVIDER_MODELS[provider]) models.push({ id, provider, key });
      }
      return { default_model: accountDefaultModel(pool), models };
    },
  };
}
