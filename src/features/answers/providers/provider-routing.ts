/** Which provider answers for a model id (decisions.md, "`selected_model` → provider"). */

/** The providers a bot can hold its own key for (bring your own key). */
export const KEY_PROVIDERS = ['openai', 'anthropic', 'google', 'mistral'] as const;
export type KeyProvider = (typeof KEY_PROVIDERS)[number];

/** Where a model id is served: one of the four providers, the OpenAI-compatible server, or the embedded engine. */
export type ModelProvider = KeyProvider | 'openai-compatible' | 'local';

export const LOCAL_MODEL = 'parley-local';

/** True when `name` is one of the four providers that take a bring-your-own key. */
export function isKeyProvider(name: string): name is KeyProvider {
  return (KEY_PROVIDERS as readonly string[]).includes(name);
}

/**
 * The provider of a model id: `gpt-*`, `o1*`, `o3*`, `o4*` → openai; `claude-*` → anthropic;
 * `gemini-*` → google; `mistral-*`, `open-mistral-*`, `ministral-*` → mistral; `parley-local` →
 * local; anything else → the OpenAI-compatible server at OPENAI_BASE_URL.
 */
export function providerForModel(modelId: string): ModelProvider {
  const id = modelId.trim().toLowerCase();
  if (id === LOCAL_MODEL) return 'local';
  if (id.startsWith('gpt-') || /^o[134]/.test(id)) return 'openai';
  if (id.startsWith('claude-')) return 'anthropic';
  if (id.startsWith('gemini-')) return 'google';
  if (id.startsWith('mistral-') || id.startsWith('open-mistral-') || id.startsWith('ministral-')) return 'mistral';
  return 'openai-compatible';
}

/** Whose key a provider takes: the OpenAI-compatible server takes the bot's (or the pool's) OpenAI key. */
export function keyProviderOf(provider: Exclude<ModelProvider, 'local'>): KeyProvider {
  return provider === 'openai-compatible' ? 'openai' : provider;
}
