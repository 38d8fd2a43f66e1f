/**
 * A provider's embedding model (OpenAI or an OpenAI-compatible server, Mistral, Google) as an
 * `Embedder`, through the AI SDK's `embedMany`. It embeds every bot's passages, so it uses the
 * operator's pool key and never a bot's own (BYOK) key.
 */
import { embedMany } from 'ai';
import type { SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { EmbeddingModelChoice, ProviderPool } from '../../../config/config.ts';
import { normalised, type Embedder } from '../semantic/embeddings.ts';
import { NO_KEY_PLACEHOLDER } from './provider-engine.ts';
import { toEmbeddingError } from './provider-errors.ts';
import { embeddingModelFor, type EmbeddingTarget } from './provider-models.ts';

export interface ProviderEmbedderDeps {
  /** PARLEY_EMBEDDING_MODEL as the configuration resolved it. */
  choice: EmbeddingModelChoice;
  /** The operator's provider keys and OPENAI_BASE_URL. */
  pool: ProviderPool;
  /** The fetch used for embedding calls (tests may pass their own). */
  fetch?: typeof fetch;
}

// gemini-embedding-001 gives 3072 dimensions by default; every vector of a bot is held in memory for
// search, and Google rates 768 nearly as good.
const PROVIDER_OPTIONS: Partial<Record<EmbeddingModelChoice['provider'], SharedV3ProviderOptions>> = {
  google: { google: { outputDimensionality: 768 } },
};

/** The model, key and base URL embeddings are asked of; undefined when the pool cannot reach the provider. */
export function embeddingTargetFor(choice: EmbeddingModelChoice, pool: ProviderPool): EmbeddingTarget | undefined {
  const { provider, modelId } = choice;
  switch (provider) {
    case 'openai': {
      // As for chat: a compatible server at OPENAI_BASE_URL may need no key.
      const apiKey = pool.openaiApiKey ?? (pool.openaiBaseUrl ? NO_KEY_PLACEHOLDER : undefined);
      return apiKey ? { provider, modelId, apiKey, baseUrl: pool.openaiBaseUrl } : undefined;
    }
    case 'mistral':
      return pool.mistralApiKey ? { provider, modelId, apiKey: pool.mistralApiKey } : undefined;
    case 'google':
      return pool.googleApiKey ? { provider, modelId, apiKey: pool.googleApiKey } : undefined;
  }
}

/** A provider's vector as a unit vector, or null when it is empty, all zeros or not finite. */
function unitVector(values: readonly number[]): Float32Array | null {
  if (values.length === 0 || !values.every(Number.isFinite) || values.every((x) => x === 0)) return null;
  return normalised(Float32Array.from(values));
}

/**
 * The configured provider embedding model as an `Embedder` named `provider:model` (e.g.
 * `openai:text-embedding-3-small`). Calls are not retried: the knowledge job embeds what is still
 * missing every 30 s, and a question's embedding that fails is simply left out of its search.
 */
export function createProviderEmbedder({ choice, pool, fetch: fetchImpl = globalThis.fetch }: ProviderEmbedderDeps): Embedder {
  const target = embeddingTargetFor(choice, pool);
  if (!target) throw new Error(`The ${choice.provider} embedding model '${choice.modelId}' has no key to be called with`);
  const model = embeddingModelFor(target, fetchImpl);
  const failure = {
    provider: target.provider === 'openai' && target.baseUrl ? ('openai-compatible' as const) : target.provider,
    modelId: target.modelId,
    secrets: [target.apiKey],
  };

  return {
    model: `${choice.provider}:${choice.modelId}`,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      try {
        const { embeddings } = await embedMany({
          model,
          values: texts,
          abortSignal: signal,
          maxRetries: 0,
          providerOptions: PROVIDER_OPTIONS[target.provider],
        });
        return embeddings.map(unitVector);
      } catch (err) {
        throw toEmbeddingError(err, { ...failure, aborted: Boolean(signal?.aborted) });
      }
    },
  };
}
