/**
 * Typed configuration, parsed once from the environment at start-up.
 * Only entry points read `process.env`; everything else receives the `Config` (or a slice of it).
 */
import path from 'node:path';
import { parseMasterKey } from '../platform/encryption.ts';

export type SignupMode = 'open' | 'first' | 'closed';
export type TrustProxy = boolean | number | string;

export interface ProviderPool {
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  anthropicApiKey?: string;
  googleApiKey?: string;
  mistralApiKey?: string;
}

/** The providers with an embedding model Parley can use (Anthropic has none). */
export const EMBEDDING_PROVIDERS = ['openai', 'mistral', 'google'] as const;
export type EmbeddingProvider = (typeof EMBEDDING_PROVIDERS)[number];

/** The provider embedding model that passages and questions are embedded with (PARLEY_EMBEDDING_MODEL). */
export interface EmbeddingModelChoice {
  provider: EmbeddingProvider;
  modelId: string;
}

export interface RateLimits {
  keyPerMin: number;
  ipPerMin: number;
  widgetPerMin: number;
  loginPerMin: number;
}

export interface Config {
  env: 'production' | 'development' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL schema to use (search_path); lets several deployments or test runs share one database. */
  databaseSchema?: string;
  redisUrl?: string;
  redisPrefix: string;
  logLevel: string;
  signup: SignupMode;
  rateLimits: RateLimits;
  monthlyMessages: number;
  maxUploadBytes: number;
  sessionIdleMinutes: number;
  /** How often the sweeper looks for idle sessions. */
  sessionSweepMs: number;
  /** How often an open event stream sends a keep-alive comment. */
  sseHeartbeatMs: number;
  /** Slow clients: time to send the headers, the whole request, and idle time between requests on a kept-alive connection. */
  httpTimeouts: { headersMs: number; requestMs: number; keepAliveMs: number };
  /** How long a signed media URL stays valid. */
  mediaUrlTtlSec: number;
  /** How often each instance looks for due crawls (the crawls themselves are leased: one instance does each). */
  crawlCheckMs: number;
  /** Where uploaded files are kept (see platform/storage). */
  storage: StorageConfig;
  webhookRetryDelaysSec: number[];
  webhookTimeoutMs: number;
  accessTokenTtlSec: number;
  refreshTokenTtlSec: number;
  allowPrivateNetwork: boolean;
  trustProxy: TrustProxy;
  providerTimeoutMs: number;
  providers: ProviderPool;
  /** Unset: retrieval uses full text and `parley-local`'s offline vectors only. */
  embeddingModel?: EmbeddingModelChoice;
  secretKey?: string;
  /** log2 of scrypt's cost parameter N. */
  passwordHashCost: number;
  dashboardSessionTtlSec: number;
  auditFlushMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Parses the environment into a Config, reporting every bad variable at once. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = new EnvReader(env, problems);

  const host = read.string('HOST', '127.0.0.1');
  const port = read.int('PORT', 3000, 0, 65535);
  const nodeEnv = read.oneOf('NODE_ENV', ['production', 'development', 'test'] as const, 'development');
  const dataDir = path.resolve(read.string('DATA_DIR', './data'));
  const publicUrl = read.url('PUBLIC_URL', `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');
  const databaseUrl = read.optional('DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL: must be a postgres:// or postgresql:// URL (unset it to use the embedded SQLite database)');
  }
  const databaseSchema = read.optional('DATABASE_SCHEMA');
  if (databaseSchema && !/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) {
    problems.push('DATABASE_SCHEMA: must be a lower-case SQL identifier');
  }
  const redisUrl = read.optional('REDIS_URL');
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL: must be a redis:// or rediss:// URL');

  const config: Config = {
    env: nodeEnv,
    host,
    port,
    publicUrl,
    dataDir,
    databaseUrl,
    databaseSchema,
    redisUrl,
    redisPrefix: read.string('PARLEY_REDIS_PREFIX', 'parley:'),
    logLevel: read.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    signup: read.oneOf('PARLEY_SIGNUP', ['open', 'first', 'closed'] as const, 'first'),
    rateLimits: {
      keyPerMin: read.int('PARLEY_RATE_KEY_PER_MIN', 60, 1),
      ipPerMin: read.int('PARLEY_RATE_IP_PER_MIN', 120, 1),
      widgetPerMin: read.int('PARLEY_RATE_WIDGET_PER_MIN', 30, 1),
      loginPerMin: read.int('PARLEY_RATE_LOGIN_PER_MIN', 10, 1),
    },
    monthlyMessages: read.int('PARLEY_MONTHLY_MESSAGES', 10000, 0),
    maxUploadBytes: read.int('PARLEY_MAX_UPLOAD_BYTES', 20971520, 1),
    sessionIdleMinutes: read.number('PARLEY_SESSION_IDLE_MINUTES', 30, 0.001),
    sessionSweepMs: read.int('PARLEY_SESSION_SWEEP_MS', 15000, 10),
    sseHeartbeatMs: read.int('PARLEY_SSE_HEARTBEAT_MS', 15000, 10),
    httpTimeouts: {
      headersMs: read.int('PARLEY_HEADERS_TIMEOUT_MS', 10000, 100),
      requestMs: read.int('PARLEY_REQUEST_TIMEOUT_MS', 60000, 100),
      keepAliveMs: read.int('PARLEY_KEEP_ALIVE_TIMEOUT_MS', 10000, 100),
    },
    mediaUrlTtlSec: read.int('PARLEY_MEDIA_URL_TTL', 86400, 1),
    storage: readStorage(read, problems),
    crawlCheckMs: read.int('PARLEY_CRAWL_CHECK_MS', 30000, 50),
    webhookRetryDelaysSec: read.numberList('PARLEY_WEBHOOK_RETRY_DELAYS', [1, 5, 30, 300, 1800, 7200, 28800]),
    webhookTimeoutMs: read.int('PARLEY_WEBHOOK_TIMEOUT_MS', 10000, 1),
    accessTokenTtlSec: read.int('PARLEY_ACCESS_TOKEN_TTL', 3600, 1),
    refreshTokenTtlSec: read.int('PARLEY_REFRESH_TOKEN_TTL', 2592000, 1),
    allowPrivateNetwork: read.flag('PARLEY_ALLOW_PRIVATE_NETWORK'),
    trustProxy: read.trustProxy('PARLEY_TRUST_PROXY'),
    providerTimeoutMs: read.int('PARLEY_PROVIDER_TIMEOUT_MS', 60000, 1),
    providers: {
      openaiApiKey: read.optional('OPENAI_API_KEY'),
      openaiBaseUrl: read.optionalUrl('OPENAI_BASE_URL'),
      anthropicApiKey: read.optional('ANTHROPIC_API_KEY'),
      googleApiKey: read.optional('GOOGLE_GENERATIVE_AI_API_KEY'),
      mistralApiKey: read.optional('MISTRAL_API_KEY'),
    },
    secretKey: read.optional('PARLEY_SECRET_KEY'),
    passwordHashCost: read.int('PARLEY_PASSWORD_HASH_COST', 16, 10, 20),
    dashboardSessionTtlSec: read.int('PARLEY_DASHBOARD_SESSION_TTL', 1209600, 60),
    auditFlushMs: read.int('PARLEY_AUDIT_FLUSH_MS', 200, 10),
  };

  config.embeddingModel = readEmbeddingModel(read.optional('PARLEY_EMBEDDING_MODEL'), config.providers, problems);

  if (config.secretKey && !parseMasterKey(config.secretKey)) {
    problems.push('PARLEY_SECRET_KEY: expected 32 bytes as 64 hex characters or base64/base64url');
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

export type StorageConfig =
  | { kind: 'local'; timeoutMs: number }
  | { kind: 'database'; timeoutMs: number }
  | {
      kind: 's3';
      timeoutMs: number;
      bucket: string;
      region: string;
      /** An S3-compatible service's URL (MinIO, R2, Ceph); unset = AWS. */
      endpoint?: string;
      forcePathStyle: boolean;
      accessKeyId: string;
      secretAccessKey: string;
      /** Prepended to every object key, e.g. `parley/`. */
      prefix: string;
    };

/**
 * PARLEY_STORAGE and its settings. S3 credentials must be given (PARLEY_S3_* or AWS_*): the SDK's
 * default chain would otherwise ask the instance metadata address, which nothing here may reach
 * unasked.
 */
function readStorage(read: EnvReader, problems: string[]): StorageConfig {
  const kind = read.oneOf('PARLEY_STORAGE', ['local', 's3', 'database'] as const, 'local');
  const timeoutMs = read.int('PARLEY_STORAGE_TIMEOUT_MS', 10000, 100);
  if (kind !== 's3') return { kind, timeoutMs };
  const bucket = read.optional('PARLEY_S3_BUCKET');
  const accessKeyId = read.optional('PARLEY_S3_ACCESS_KEY_ID') ?? read.optional('AWS_ACCESS_KEY_ID');
  const secretAccessKey = read.optional('PARLEY_S3_SECRET_ACCESS_KEY') ?? read.optional('AWS_SECRET_ACCESS_KEY');
  if (!bucket) problems.push('PARLEY_S3_BUCKET: required with PARLEY_STORAGE=s3');
  if (!accessKeyId || !secretAccessKey) problems.push('PARLEY_S3_ACCESS_KEY_ID and PARLEY_S3_SECRET_ACCESS_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY): required with PARLEY_STORAGE=s3');
  const prefix = read.string('PARLEY_S3_PREFIX', '');
  if (prefix && !/^[A-Za-z0-9._\/-]+\/$/.test(prefix)) problems.push("PARLEY_S3_PREFIX: letters, digits, '.', '_', '-' and '/', ending with '/' (e.g. parley/)");
  return {
    kind,
    timeoutMs,
    bucket: bucket ?? '',
    region: read.string('PARLEY_S3_REGION', read.optional('AWS_REGION') ?? 'us-east-1'),
    endpoint: read.optionalUrl('PARLEY_S3_ENDPOINT'),
    forcePathStyle: read.flag('PARLEY_S3_FORCE_PATH_STYLE'),
    accessKeyId: accessKeyId ?? '',
    secretAccessKey: secretAccessKey ?? '',
    prefix,
  };
}

/**
 * PARLEY_EMBEDDING_MODEL: `provider:model` or `off`. Unset picks the first pool with a known
 * embedding model: OpenAI (only without OPENAI_BASE_URL, since a compatible server names its
 * embedding models its own way), then Mistral, then Google. A named model whose provider has no
 * key (or, for OpenAI, no base URL either) is a problem, not a silent fallback.
 */
function readEmbeddingModel(raw: string | undefined, pool: ProviderPool, problems: string[]): EmbeddingModelChoice | undefined {
  if (raw === undefined) {
    if (pool.openaiApiKey && !pool.openaiBaseUrl) return { provider: 'openai', modelId: 'text-embedding-3-small' };
    if (pool.mistralApiKey) return { provider: 'mistral', modelId: 'mistral-embed' };
    if (pool.googleApiKey) return { provider: 'google', modelId: 'gemini-embedding-001' };
    return undefined;
  }
  if (raw.toLowerCase() === 'off') return undefined;
  // Split at the first colon only: model ids may hold colons of their own (Ollama's `name:tag`).
  const colon = raw.indexOf(':');
  const provider = colon > 0 ? raw.slice(0, colon).trim().toLowerCase() : '';
  const modelId = colon > 0 ? raw.slice(colon + 1).trim() : '';
  if (provider === 'anthropic') {
    problems.push(`PARLEY_EMBEDDING_MODEL: Anthropic has no embedding model; use openai, mistral or google, or off (got '${raw}')`);
    return undefined;
  }
  if (!(EMBEDDING_PROVIDERS as readonly string[]).includes(provider) || !modelId) {
    problems.push(`PARLEY_EMBEDDING_MODEL: expected provider:model with provider openai, mistral or google (e.g. openai:text-embedding-3-small), or off; got '${raw}'`);
    return undefined;
  }
  const choice = { provider: provider as EmbeddingProvider, modelId };
  const missing = {
    openai: pool.openaiApiKey || pool.openaiBaseUrl ? undefined : 'OPENAI_API_KEY or OPENAI_BASE_URL',
    mistral: pool.mistralApiKey ? undefined : 'MISTRAL_API_KEY',
    google: pool.googleApiKey ? undefined : 'GOOGLE_GENERATIVE_AI_API_KEY',
  }[choice.provider];
  if (missing) {
    problems.push(`PARLEY_EMBEDDING_MODEL: '${raw}' needs ${missing} to be set`);
    return undefined;
  }
  return choice;
}

/** Reads typed values from the environment and records a problem naming the variable for each bad one. */
class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  optional(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value ? value : undefined;
  }

  string(name: string, fallback: string): string {
    return this.optional(name) ?? fallback;
  }

  int(name: string, fallback: number, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
      this.problems.push(`${name}: expected an integer from ${min} to ${max}, got '${raw}'`);
      return fallback;
    }
    return value;
  }

  number(name: string, fallback: number, min: number): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min) {
      this.problems.push(`${name}: expected a number of at least ${min}, got '${raw}'`);
      return fallback;
    }
    return value;
  }

  numberList(name: string, fallback: number[]): number[] {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    const values = raw.split(',').map((part) => Number(part.trim()));
    if (values.length === 0 || values.some((v) => !Number.isFinite(v) || v < 0)) {
      this.problems.push(`${name}: expected a comma-separated list of non-negative numbers, got '${raw}'`);
      return fallback;
    }
    return values;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name}: expected one of ${allowed.join(', ')}, got '${raw}'`);
      return fallback;
    }
    return raw as T;
  }

  flag(name: string): boolean {
    const raw = this.optional(name);
    if (raw === undefined) return false;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    this.problems.push(`${name}: expected 1 or 0, got '${raw}'`);
    return false;
  }

  url(name: string, fallback: string): string {
    return this.optionalUrl(name) ?? fallback;
  }

  optionalUrl(name: string): string | undefined {
    const raw = this.optional(name);
    if (raw === undefined) return undefined;
    try {
      const parsed = new URL(raw);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
      return raw;
    } catch {
      this.problems.push(`${name}: expected an http:// or https:// URL, got '${raw}'`);
      return undefined;
    }
  }

  /** Fastify's trustProxy syntax: true/false, a hop count, or a comma-separated list of addresses and CIDR ranges. */
  trustProxy(name: string): TrustProxy {
    const raw = this.optional(name);
    if (raw === undefined || raw === 'false' || raw === '0') return false;
    if (raw === 'true') return true;
    if (/^\d+$/.test(raw)) return Number(raw);
    return raw;
  }
}
