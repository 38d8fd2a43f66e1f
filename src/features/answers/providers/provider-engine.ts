/**
 * The LLM answer engine: picks the provider from the bot's `selected_model`, uses the bot's own key
 * (BYOK), else the shared pool, else hands the request to the fallback engine (`parley-local`), and
 * streams the provider's text as it arrives.
 */
import type { ProviderPool } from '../../../config/config.ts';
import { AnswerError, type AnswerEngine, type AnswerRequest, type AnswerSource, type AnswerStream, type RetrievedPassage, type Retriever } from '../answers.types.ts';
import { searchForQuestion } from '../question-retrieval.ts';
import { streamChatCompletion } from './chat-completions.ts';
import { InactivityWatchdog } from './inactivity-watchdog.ts';
import { providerLabel, toAnswerError } from './provider-errors.ts';
import { languageModelFor, type ModelTarget } from './provider-models.ts';
import { keyProviderOf, providerForModel, type KeyProvider } from './provider-routing.ts';
import { providerPromptFor, type ProviderPrompt } from './prompts.ts';

/** How many passages the prompt carries. */
export const PASSAGE_LIMIT = 6;

/** Sent as the key to an OpenAI-compatible server configured without one (Ollama needs none). */
export const NO_KEY_PLACEHOLDER = 'parley-no-key';

export interface ProviderEngineDeps {
  /** The operator's provider keys and OPENAI_BASE_URL. */
  pool: ProviderPool;
  /** Longest wait for the first byte and between bytes (PARLEY_PROVIDER_TIMEOUT_MS). */
  timeoutMs: number;
  /** The bot's own (decrypted) key for a provider, if it has one. */
  keyFor: (botId: string, provider: KeyProvider) => Promise<string | undefined>;
  retriever: Retriever;
  /** Answers when the bot's provider has neither a BYOK key nor a pool (parley-local). */
  fallback: AnswerEngine;
  /** The fetch used for provider calls (tests may pass their own). */
  fetch?: typeof fetch;
}

/**
 * Where a bot's answer comes from: a provider, model and key, or undefined when the fallback
 * engine answers. OPENAI_BASE_URL applies to pool and BYOK keys alike.
 */
export async function resolveModelTarget(
  bot: AnswerRequest['bot'],
  pool: ProviderPool,
  keyFor: ProviderEngineDeps['keyFor'],
): Promise<ModelTarget | undefined> {
  const provider = providerForModel(bot.selected_model);
  if (provider === 'local') return undefined;
  const own = await keyFor(bot.id, keyProviderOf(provider));
  const modelId = bot.selected_model.trim();
  switch (provider) {
    case 'openai':
    case 'openai-compatible': {
      // The OpenAI pool exists when OPENAI_API_KEY or OPENAI_BASE_URL is set; a local server may need no key.
      const apiKey = own ?? pool.openaiApiKey ?? (pool.openaiBaseUrl ? NO_KEY_PLACEHOLDER : undefined);
      return apiKey ? { provider, modelId, apiKey, baseUrl: pool.openaiBaseUrl } : undefined;
    }
    case 'anthropic':
    case 'google':
    case 'mistral': {
      const poolKey = { anthropic: pool.anthropicApiKey, google: pool.googleApiKey, mistral: pool.mistralApiKey }[provider];
      const apiKey = own ?? poolKey;
      return apiKey ? { provider, modelId, apiKey } : undefined;
    }
  }
}

// A model reads passages found by meaning as well as by words, so the provider's embeddings (when
// configured) are worth their network call here; parley-local quotes by words and goes without.
const SEARCH_OPTIONS = { providerEmbeddings: true } as const;

/**
 * Passages for the question, searched as `parley-local` searches it (its words, synonyms and
 * translations, and the turn a follow-up leans on) and by the question as written for the provider's
 * embeddings; a follow-up that still finds nothing is retried with the previous question.
 */
async function retrievePassages(retriever: Retriever, request: AnswerRequest): Promise<RetrievedPassage[]> {
  const found = await searchForQuestion(retriever, request.bot.id, request.question, request.history, PASSAGE_LIMIT, SEARCH_OPTIONS);
  if (found.length > 0) return found;
  const previous = [...request.history].reverse().find((turn) => turn.role === 'user');
  return previous ? retriever.search(request.bot.id, `${previous.content} ${request.question}`, PASSAGE_LIMIT, SEARCH_OPTIONS) : found;
}

/** The distinct sources of the passages, in passage order. */
function sourcesOf(passages: readonly RetrievedPassage[]): AnswerSource[] {
  const seen = new Map<string, AnswerSource>();
  for (const p of passages) {
    const key = `${p.sourceTitle}\u0000${p.sourceUrl}`;
    if (!seen.has(key)) seen.set(key, { title: p.sourceTitle, url: p.sourceUrl });
  }
  return [...seen.values()];
}

/** An AnswerEngine over the AI SDK providers, with BYOK keys, the shared pool and a fallback. */
export function createProviderEngine(deps: ProviderEngineDeps): AnswerEngine {
  const { pool, timeoutMs, keyFor, retriever, fallback } = deps;
  const baseFetch = deps.fetch ?? globalThis.fetch;

  return {
    async answer(request: AnswerRequest): Promise<AnswerStream> {
      let target: ModelTarget | undefined;
      try {
        target = await resolveModelTarget(request.bot, pool, keyFor);
      } catch {
        throw new AnswerError("The bot's stored provider key cannot be read (was PARLEY_SECRET_KEY changed?)", 'internal_error');
      }
      if (!target) return fallback.answer(request);

      const passages = await retrievePassages(retriever, request);
      const prompt = providerPromptFor(request, passages);
      const sources = sourcesOf(passages);
      return {
        engine: `${target.provider}:${target.modelId}`,
        sources: () => sources,
        chunks: streamAnswer(target, prompt, request.signal),
      };
    },
  };

  /**
   * The answer's text pieces from the provider: Chat Completions through Parley's own lean client,
   * the other providers through their AI SDK model's `doStream` (the provider packages build the
   * request, parse the events and map the errors; `streamText`, whose steps, tools, retries and
   * telemetry Parley does not use, would add half a millisecond before the first token).
   */
  async function* providerDeltas(target: ModelTarget, prompt: ProviderPrompt, signal: AbortSignal, watchdog: InactivityWatchdog): AsyncGenerator<string> {
    const { provider } = target;
    // OpenAI and compatible servers speak Chat Completions (Ollama, vLLM and llama.cpp have no
    // Responses API, and Chat Completions does not store conversations by default).
    if (provider === 'openai' || provider === 'openai-compatible') {
      yield* streamChatCompletion({ baseUrl: target.baseUrl, apiKey: target.apiKey, modelId: target.modelId, prompt, signal, onHeaders: () => watchdog.touch(), onBody: () => watchdog.bodyArrived() });
      return;
    }
    const model = languageModelFor(provider, target.modelId, target.apiKey, watchdog.wrapFetch(baseFetch));
    const { stream } = await model.doStream({ prompt, abortSignal: signal });
    for await (const part of stream) {
      if (part.type === 'text-delta') {
        if (part.delta) yield part.delta;
      } else if (part.type === 'error') {
        throw part.error;
      } else if (part.type === 'finish' && part.finishReason.unified === 'error') {
        throw new Error('the stream ended with an error');
      }
    }
  }

  /** Streams the provider's answer, with the inactivity watchdog, and turns any failure into an AnswerError. */
  async function* streamAnswer(target: ModelTarget, prompt: ProviderPrompt, callerSignal: AbortSignal | undefined): AsyncGenerator<string> {
    const watchdog = new InactivityWatchdog(timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, watchdog.signal]) : watchdog.signal;
    let failure: unknown;
    let failed = false;
    let finished = false;
    let yielded = false;
    watchdog.touch();
    try {
      for await (const delta of providerDeltas(target, prompt, signal, watchdog)) {
        yielded = true;
        watchdog.pause();
        yield delta;
        watchdog.resume();
      }
      if (signal.aborted) [failed, failure] = [true, signal.reason];
      finished = !failed;
    } catch (err) {
      [failed, failure] = [true, err];
    } finally {
      watchdog.stop();
      // The consumer stopped early, or the call failed: make sure the connection is closed.
      if (!finished) watchdog.cancel();
    }
    if (failed) {
      throw toAnswerError(failure, {
        provider: target.provider,
        modelId: target.modelId,
        secrets: [target.apiKey],
        timedOut: watchdog.timedOut,
        timeoutMs,
        cancelled: Boolean(callerSignal?.aborted),
        midStream: yielded || watchdog.receivedBody,
      });
    }
    if (!yielded) throw new AnswerError(`${providerLabel(target.provider)} sent an empty answer`, 'provider_error');
  }
}
