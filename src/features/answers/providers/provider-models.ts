/** Builds the AI SDK model (language or embedding) for a provider, a model id and a key. */
import type { EmbeddingModelV3, LanguageModelV3 } from '@ai-sdk/provider';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import type { EmbeddingProvider } from '../../../config/config.ts';
import type { ModelProvider } from './provider-routing.ts';

export interface ModelTarget {
  provider: Exclude<ModelProvider, 'local'>;
  modelId: string;
  apiKey: string;
  /** OPENAI_BASE_URL, for openai and openai-compatible. */
  baseUrl?: string;
}

/** The providers whose chat models Parley reaches through the AI SDK (Chat Completions has its own client, chat-completions.ts). */
export type SdkChatProvider = Exclude<ModelTarget['provider'], 'openai' | 'openai-compatible'>;

/** The AI SDK model to stream from. */
export function languageModelFor(provider: SdkChatProvider, modelId: string, apiKey: string, fetchImpl: typeof fetch): LanguageModelV3 {
  switch (provider) {
    case 'anthropic':
      return createAnthropic({ apiKey, fetch: fetchImpl })(modelId);
    case 'google':
      return createGoogleGenerativeAI({ apiKey, fetch: fetchImpl })(modelId);
    case 'mistral':
      return createMistral({ apiKey, fetch: fetchImpl })(modelId);
  }
}

/** Where passages and questions are embedded: a provider's embedding model and the pool's key. */
export interface EmbeddingTarget {
  provider: EmbeddingProvider;
  modelId: string;
  apiKey: string;
  /** OPENAI_BASE_URL, for openai (a compatible server's embeddings endpoint). */
  baseUrl?: string;
}

/** The embedding model, built the way `languageModelFor` builds chat models (same base URL, same fetch). */
export function embeddingModelFor(target: EmbeddingTarget, fetchImpl: typeof fetch): EmbeddingModelV3 {
  const { provider, modelId, apiKey, baseUrl } = target;
  switch (provider) {
    case 'openai':
      return createOpenAI({ apiKey, baseURL: baseUrl, fetch: fetchImpl }).embedding(modelId);
    case 'google':
      return createGoogleGenerativeAI({ apiKey, fetch: fetchImpl }).embedding(modelId);
    case 'mistral':
      return createMistral({ apiKey, fetch: fetchImpl }).embedding(modelId);
  }
}
