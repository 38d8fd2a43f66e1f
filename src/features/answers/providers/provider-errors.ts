/**
 * Turns whatever a provider call threw into an `AnswerError` (or, for embeddings, a plain `Error`)
 * whose message names the provider's problem (rejected key, rate limit, failure status, broken
 * stream, silence) and never a key.
 */
import { APICallError, RetryError } from 'ai';
import { AnswerError } from '../answers.types.ts';
import type { ModelProvider } from './provider-routing.ts';

const PROVIDER_LABELS: Record<Exclude<ModelProvider, 'local'>, string> = {
  openai: 'OpenAI',
  'openai-compatible': 'The OpenAI-compatible server',
  anthropic: 'Anthropic',
  google: 'Google',
  mistral: 'Mistral',
};

/** How a provider is named in messages. */
export function providerLabel(provider: Exclude<ModelProvider, 'local'>): string {
  return PROVIDER_LABELS[provider];
}

const MESSAGE_LIMIT = 300;
// Things that look like credentials: provider key prefixes, masked keys ("sk-ab****yz"), long tokens.
const KEY_LIKE = [
  /\b(?:sk|pk|rk|sess)-[A-Za-z0-9_*-]{4,}/g,
  /\bAIza[0-9A-Za-z_-]{8,}/g,
  /[A-Za-z0-9_-]*\*{3,}[A-Za-z0-9_*-]*/g,
  /[A-Za-z0-9_+/=-]{32,}/g,
];

/** Removes `secrets` and anything key-shaped from provider text, and shortens it. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (secret.length >= 4) result = result.split(secret).join('[redacted]');
  for (const pattern of KEY_LIKE) result = result.replace(pattern, '[redacted]');
  result = result.replace(/\s+/g, ' ').trim();
  return result.length > MESSAGE_LIMIT ? `${result.slice(0, MESSAGE_LIMIT - 1)}…` : result;
}

export interface FailureContext {
  provider: Exclude<ModelProvider, 'local'>;
  modelId: string;
  /** The key sent, to be scrubbed from any text the provider echoed. */
  secrets: readonly string[];
  timedOut: boolean;
  timeoutMs: number;
  /** The caller aborted (the visitor went away). */
  cancelled: boolean;
  /** Part of the answer had arrived when the call failed. */
  midStream: boolean;
}

function causeText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if (current instanceof Error) {
      const code = (current as NodeJS.ErrnoException).code;
      parts.push(code && !current.message.includes(code) ? `${current.message} (${code})` : current.message);
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return [...new Set(parts.filter(Boolean))].join(': ') || 'unknown error';
}

/** The AnswerError for a failed provider call. */
export function toAnswerError(error: unknown, context: FailureContext): AnswerError {
  const label = providerLabel(context.provider);
  const clean = (text: string) => redactSecrets(text, context.secrets);
  if (context.timedOut) return new AnswerError(`${label} sent nothing for ${context.timeoutMs} ms`, 'provider_error');
  if (context.cancelled) return new AnswerError('The answer was cancelled', 'provider_error');

  const cause = RetryError.isInstance(error) ? error.lastError : error;
  // A 2xx APICallError is a body that failed mid-way, not a failure status.
  if (APICallError.isInstance(cause) && cause.statusCode !== undefined && cause.statusCode >= 400) {
    const status = cause.statusCode;
    if (status === 401 || status === 403) return new AnswerError(`${label} rejected the API key (HTTP ${status})`, 'provider_error');
    if (status === 429) return new AnswerError(`${label} refused the request: rate limit or quota reached (HTTP 429)`, 'provider_error');
    if (status === 404) return new AnswerError(`${label} does not offer the model '${clean(context.modelId)}' (HTTP 404): ${clean(cause.message)}`, 'provider_error');
    return new AnswerError(`${label} answered HTTP ${status}: ${clean(cause.message)}`, 'provider_error');
  }
  const detail = APICallError.isInstance(cause) && cause.cause ? cause.cause : cause;
  if (context.midStream) return new AnswerError(`${label} broke off the answer: ${clean(causeText(detail))}`, 'provider_error');
  return new AnswerError(`${label} could not be reached or sent an unusable answer: ${clean(causeText(detail))}`, 'provider_error');
}

/**
 * The error for a failed embedding call. It carries no `cause`: the AI SDK's error holds the request
 * body (passages' text) and the provider's response, which may echo the key, and it gets logged.
 */
export function toEmbeddingError(
  error: unknown,
  context: Pick<FailureContext, 'provider' | 'modelId' | 'secrets'> & { aborted: boolean },
): Error {
  const clean = (text: string) => redactSecrets(text, context.secrets);
  const what = `${providerLabel(context.provider)} could not embed with '${clean(context.modelId)}'`;
  if (context.aborted) return new Error(`${what}: no answer in time, or the call was cancelled`);
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  if (APICallError.isInstance(cause) && cause.statusCode !== undefined && cause.statusCode >= 400) {
    const status = cause.statusCode;
    if (status === 401 || status === 403) return new Error(`${what}: the API key was rejected (HTTP ${status})`);
    if (status === 429) return new Error(`${what}: rate limit or quota reached (HTTP 429)`);
    return new Error(`${what}: HTTP ${status}: ${clean(cause.message)}`);
  }
  const detail = APICallError.isInstance(cause) && cause.cause ? cause.cause : cause;
  return new Error(`${what}: ${clean(causeText(detail))}`);
}
