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

/**
 * The model to stream from. OpenAI and compatible servers speak Chat Completions (Ollama, vLLM and
 * llama.cpp have no Responses API, and Chat Completions does not store conversations by default).
 */
export function languageModelFor(target: ModelTarget, fetchImpl: typeof fetch): LanguageModelV3 {
  const { provider, modelId, apiKey, baseUrl } = target;
  switch (provider) {
    case 'openai':
    case 'openai-compatible':
      return createOpenAI({ apiKey, baseURL: baseUrl, fetch: fetchImpl, ...(provider === 'openai-compatible' && { name: 'openai-compatible' }) }).chat(modelId);
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
