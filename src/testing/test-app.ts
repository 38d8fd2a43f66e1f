/**
 * Starts the real service for a test: its own database (a temporary SQLite directory, or a fresh
 * PostgreSQL schema when TEST_DATABASE_URL is set), Redis when TEST_REDIS_URL is set, a manual
 * clock, and a real HTTP port. Requests go over HTTP with fetch.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../config/config.ts';
import { dropPostgresSchema } from '../db/database.ts';
import { openRuntime, type Runtime } from '../runtime.ts';
import { buildApp, type AppOptions } from '../app.ts';
import { ManualClock } from '../platform/clock.ts';

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);
export const usingRedis = Boolean(process.env.TEST_REDIS_URL);

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestApp {
  url: string;
  app: FastifyInstance;
  runtime: Runtime;
  clock: ManualClock;
  env: Record<string, string>;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Another test app whose database, data directory and Redis prefix this one shares (a second instance). */
  shareWith?: TestApp;
  clock?: ManualClock;
  app?: AppOptions;
  /** Listen on this port rather than any free one, so that PUBLIC_URL can name it (signed media links a browser loads). */
  port?: number;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const shared = options.shareWith?.env;
  const suffix = randomBytes(6).toString('hex');
  const dataDir = shared?.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'parley-test-'));
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PARLEY_SIGNUP: 'open',
    PARLEY_PASSWORD_HASH_COST: '10',
    PARLEY_AUDIT_FLUSH_MS: '50',
    // Tests share one client address and a frozen clock; the rate-limit tests set real limits.
    PARLEY_RATE_IP_PER_MIN: '100000',
    PARLEY_RATE_KEY_PER_MIN: '100000',
    ...(usingPostgres && {
      DATABASE_URL: process.env.TEST_DATABASE_URL!,
      DATABASE_SCHEMA: shared?.DATABASE_SCHEMA ?? `t_${suffix}`,
    }),
    ...(usingRedis && {
      REDIS_URL: process.env.TEST_REDIS_URL!,
      PARLEY_REDIS_PREFIX: shared?.PARLEY_REDIS_PREFIX ?? `parley-test:${suffix}:`,
    }),
    ...options.env,
  };
  const clock = options.clock ?? options.shareWith?.clock ?? new ManualClock(Date.now());
  const runtime = await openRuntime(loadConfig(env), clock);
  const app = await buildApp(runtime, options.app);
  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    url,
    app,
    runtime,
    clock,
    env,
    async request(method, path, { token, body, headers = {} } = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (token) (init.headers as Record<string, string>).authorization = `Bearer ${token}`;
      if (body !== undefined) {
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
      }
      const res = await fetch(url + path, init);
      const text = await res.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, body: parsed as never, text };
    },
    async close() {
      await app.close();
      // A test may already have closed part of the runtime on purpose (e.g. the database).
      await runtime.close().catch(() => {});
      if (!shared) {
        if (usingPostgres) await dropPostgresSchema(env.DATABASE_URL!, env.DATABASE_SCHEMA!);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
