/**
 * `npm run bench`: Parley's request overhead against a bare Fastify route.
 *
 * Starts a bare Fastify server and the real service (production mode, SQLite in a fresh temporary
 * directory) as child processes, makes an account, a bot and an API key through the API, then
 * measures each scenario with autocannon (an uncounted warm-up, then the measured run) and prints
 * requests/s, p50 and p99 latency and the ratio to the bare route, the targets with PASS/FAIL, and
 * a `BENCH_JSON {…}` line.
 *
 * Environment: BENCH_DURATION (measured seconds per scenario, default 10), BENCH_CONNECTIONS
 * (default 32), BENCH_WARMUP (warm-up seconds, default 3), BENCH_ONLY=analytics, BENCH_ONLY=answers, BENCH_ONLY=provider,
 * BENCH_ONLY=webhooks (chat with and without a webhook) or BENCH_ONLY=widget (only those figures), BENCH_WIDGET_LOADS (page loads per widget figure, default 20).
 *
 * Exit code: 0 when the bench ran (a missed target only prints FAIL); 1 on an error, including
 * any non-2xx response or connection error during a measured run.
 *
 * To add a scenario, append to SCENARIOS below.
 */
import { measureAnalytics } from './analytics.ts';
import { measureWidget, reportWidget, type WidgetFigures } from './widget.ts';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { measureIngestion, measureLocalAnswers, type LatencyRow } from './knowledge.ts';
import { chatQuestions, loadChatKnowledge, measureFirstToken, measureProviderOverhead, CHAT_SOURCE_CHARS } from './chat.ts';
import { measureProviderThroughput, PROVIDER_TARGETS, type ProviderThroughput } from './provider.ts';
import { cleanup, freePort, makeTempDir, measure, round, startServer, table, waitForHttp, type LoadResult } from './lib.ts';
import { measureChatWithWebhook, measureDeliveryRate, measureEventLag, registerWebhook } from './webhooks.ts';

// ---------------------------------------------------------------------------------------------
// Scenarios.

/** What the setup made through the API, for scenarios to use. */
export interface Fixtures {
  parleyUrl: string;
  /** A dashboard session token (owner of the account). */
  token: string;
  accountId: string;
  botId: string;
  /** A `parley_sk_…` API key of the bot, with the default scopes (chat, read). */
  key: string;
  keyId: string;
  /** A JSON request to Parley; throws unless the status is `expect`. */
  api<T = any>(method: string, path: string, options?: { token?: string; body?: unknown; expect?: number }): Promise<T>;
}

type FromFixtures<T> = T | ((fixtures: Fixtures) => T);

export interface Scenario {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: FromFixtures<string>;
  headers?: FromFixtures<Record<string, string>>;
  /** Sent as JSON (with `content-type: application/json`). */
  body?: FromFixtures<unknown>;
  /** Sent as JSON in turn, one per request (instead of `body`). */
  bodies?: FromFixtures<unknown[]>;
  /** Runs once before the scenario's warm-up; may override path, headers or bodies (e.g. with data it made). */
  setup?(fixtures: Fixtures): Promise<Partial<Pick<Scenario, 'path' | 'headers' | 'body' | 'bodies'>> | void>;
  /** Targets reported with PASS/FAIL (never failing the run). */
  targets?: { minRatio?: number; maxP99Ms?: number; minRps?: number };
}


const SCENARIOS: Scenario[] = [
  {
    // Authentication (key cache), per-IP and per-key rate limits, usage counting and audit are all on.
    name: 'GET /api/v1/bot',
    method: 'GET',
    path: '/api/v1/bot',
    headers: (f) => ({ authorization: `Bearer ${f.key}` }),
    targets: { minRatio: 0.4, maxP99Ms: 10 },
  },
  {
    // A whole chat turn: quota, session and both messages stored with their events, retrieval over
    // 1,000 sources and a parley-local answer. Every request starts a new session.
    name: 'POST /api/v1/chat (parley-local, 1,000 sources)',
    method: 'POST',
    path: '/api/v1/chat',
    headers: (f) => ({ authorization: `Bearer ${f.key}` }),
    async setup(f) {
      const questions = chatQuestions(await chatKnowledge(f), 200);
      return { bodies: questions.map((text) => ({ text })) };
    },
    targets: { minRps: 500, maxP99Ms: 100 },
  },
];

let loadedDocs: Promise<string[]> | undefined;

/** The bench bot's 1,000 knowledge sources, loaded once through the API. */
function chatKnowledge(f: Fixtures): Promise<string[]> {
  loadedDocs ??= (async () => {
    const writer = await f.api<{ key: string }>('POST', '/api/keys', { token: f.token, body: { bot_id: f.botId, name: 'bench loader', scopes: ['read', 'write'] } });
    console.log(`loading 1,000 knowledge sources of ${CHAT_SOURCE_CHARS.toLocaleString('en')} characters …`);
    const docs = await loadChatKnowledge(f.parleyUrl, writer.key);
    // The service compacts the full-text index 2 s after the last knowledge write, in small steps
    // between requests; the chat figures are for the settled index, so that work is let finish first.
    await new Promise((resolve) => setTimeout(resolve, INDEX_SETTLE_MS));
    return docs;
  })();
  return loadedDocs;
}

const BARE_NAME = 'bare Fastify GET /bare';

/** How long the chat scenarios wait after loading knowledge (see chatKnowledge). */
const INDEX_SETTLE_MS = 5_000;

// ---------------------------------------------------------------------------------------------
// Settings.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HOST = '127.0.0.1';

function envNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name}: expected a number of at least ${min}, got '${raw}'`);
  return value;
}

/** The environment for a child: this one's, minus anything that would change Parley's setup. */
function childEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith('PARLEY_')) continue;
    if (['DATABASE_URL', 'DATABASE_SCHEMA', 'REDIS_URL', 'PUBLIC_URL'].includes(name)) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

// ---------------------------------------------------------------------------------------------
// Run.

interface Row {
  name: string;
  result: LoadResult;
  ratio: number | null;
  targets?: Scenario['targets'];
}

async function main(): Promise<void> {
  const durationSec = envNumber('BENCH_DURATION', 10, 1);
  const connections = Math.floor(envNumber('BENCH_CONNECTIONS', 32, 1));
  const warmupSec = envNumber('BENCH_WARMUP', 3, 0);
  const load = { connections, durationSec, warmupSec };

  const [barePort, parleyPort, receiverPort, providerPort, proxyPort] = await distinctFreePorts(5);
  const dataDir = makeTempDir('parley-bench-');
  const provider = startServer({
    name: 'provider',
    args: ['--import', 'tsx', 'bench/lean-provider.ts'],
    cwd: ROOT,
    env: childEnv({ HOST, PORT: String(providerPort) }),
    url: `http://${HOST}:${providerPort}`,
  });
  const providerBaseUrl = `${provider.url}/v1`;
  const proxy = startServer({
    name: 'proxy',
    args: ['--import', 'tsx', 'bench/provider-proxy.ts'],
    cwd: ROOT,
    env: childEnv({ NODE_ENV: 'production', HOST, PORT: String(proxyPort), UPSTREAM: providerBaseUrl }),
    url: `http://${HOST}:${proxyPort}`,
  });

  const bare = startServer({
    name: 'bare',
    args: ['--import', 'tsx', 'bench/bare-server.ts'],
    cwd: ROOT,
    env: childEnv({ NODE_ENV: 'production', HOST, PORT: String(barePort) }),
    url: `http://${HOST}:${barePort}`,
  });
  const parley = startServer({
    name: 'parley',
    // BENCH_PROFILE=<dir>: Parley writes a V8 CPU profile there when it stops.
    args: [...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []), '--import', 'tsx', 'src/server.ts'],
    cwd: ROOT,
    env: childEnv({
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST,
      PORT: String(parleyPort),
      DATA_DIR: dataDir,
      PARLEY_SIGNUP: 'open',
      PARLEY_RATE_KEY_PER_MIN: '100000000',
      PARLEY_RATE_IP_PER_MIN: '100000000',
      PARLEY_RATE_WIDGET_PER_MIN: '100000000',
      PARLEY_MONTHLY_MESSAGES: '1000000000',
      OPENAI_BASE_URL: providerBaseUrl,
      // The webhook receiver is on 127.0.0.1.
      PARLEY_ALLOW_PRIVATE_NETWORK: '1',
    }),
    url: `http://${HOST}:${parleyPort}`,
  });
  const receiver = startServer({
    name: 'webhook receiver',
    args: ['--import', 'tsx', 'bench/webhook-receiver.ts'],
    cwd: ROOT,
    env: childEnv({ HOST, PORT: String(receiverPort) }),
    url: `http://${HOST}:${receiverPort}`,
  });
  // The receiver stands for the business's own server, which runs elsewhere: here it shares two
  // cores with the service and the load generator, so it runs at the lowest priority and takes
  // what CPU they leave.
  if (receiver.pid) os.setPriority(receiver.pid, 19);
  await Promise.all([waitForHttp(bare, '/bare'), waitForHttp(parley, '/healthz'), waitForHttp(receiver, '/stats'), waitForPort(provider), waitForPort(proxy)]);

  const fixtures = await makeFixtures(parley.url);
  if (process.env.BENCH_ONLY === 'analytics') {
    // A quick run of the analytics figures alone, while working on them.
    for (const l of await measureAnalytics(fixtures, dataDir)) console.log(`${l.name}: p50 ${l.p50.toFixed(2)} ms, p95 ${l.p95.toFixed(2)} ms`);
    await cleanup();
    process.exit(0);
  }
  if (process.env.BENCH_ONLY === 'answers') {
    const l = await measureLocalAnswers();
    console.log(`${l.name}: p50 ${l.p50.toFixed(2)} ms, p95 ${l.p95.toFixed(2)} ms`);
    await cleanup();
    process.exit(0);
  }
  if (process.env.BENCH_ONLY === 'provider') {
    const figures = await measureProviderThroughput(fixtures, proxy.url, load, parley.pid);
    reportProvider(figures, load, []);
    await cleanup();
    process.exit(0);
  }
  if (process.env.BENCH_ONLY === 'webhooks') {
    const pairLoad = { connections, warmupSec: Math.min(warmupSec, 2), durationSec: Math.max(3, Math.round(durationSec / 2)) };
    const pair = await measureChatWithWebhook(fixtures, dataDir, receiver.url, chatQuestions(await chatKnowledge(fixtures), 200), pairLoad);
    const rps = (xs: number[]) => xs.map((x) => Math.round(x)).join(', ');
    console.log(`chat req/s without a webhook: ${rps(pair.without)}; with one on every event: ${rps(pair.withHook)}; ${(pair.ratio * 100).toFixed(1)}%`);
    await cleanup();
    process.exit(0);
  }
  if (process.env.BENCH_ONLY === 'widget') {
    const { json } = reportWidget(await measureWidget(fixtures));
    console.log(`BENCH_JSON ${JSON.stringify({ widget: json })}`);
    await cleanup();
    process.exit(0);
  }

  console.log(
    `bench: ${connections} connections, ${warmupSec} s warm-up + ${durationSec} s measured per scenario ` +
      `(bare pid ${bare.pid}, parley pid ${parley.pid}, node ${process.version})`,
  );

  const problems: string[] = [];
  const checkClean = (name: string, r: LoadResult) => {
    if (r.non2xx > 0) problems.push(`${name}: ${r.non2xx} non-2xx responses (${JSON.stringify(r.statusCodes)})`);
    if (r.errors > 0) problems.push(`${name}: ${r.errors} connection errors (${r.timeouts} timeouts)`);
    if (r.total === 0) problems.push(`${name}: no responses`);
  };

  console.log(`measuring ${BARE_NAME} …`);
  const baseline = await measure({ url: `${bare.url}/bare`, method: 'GET' }, load);
  checkClean(BARE_NAME, baseline);
  const rows: Row[] = [{ name: BARE_NAME, result: baseline, ratio: null }];

  for (const scenario of SCENARIOS) {
    const overrides = (await scenario.setup?.(fixtures)) ?? {};
    const resolved = { ...scenario, ...overrides };
    const path = resolve(resolved.path, fixtures);
    const headers = { ...(resolve(resolved.headers, fixtures) ?? {}) };
    const body = resolve(resolved.body, fixtures);
    const bodies = resolve(resolved.bodies, fixtures)?.map((b) => JSON.stringify(b));
    if (body !== undefined || bodies) headers['content-type'] ??= 'application/json';
    console.log(`measuring ${scenario.name} …`);
    const result = await measure(
      { url: parley.url + path, method: scenario.method, headers, body: body === undefined ? undefined : JSON.stringify(body), bodies },
      load,
    );
    checkClean(scenario.name, result);
    rows.push({ name: scenario.name, result, ratio: baseline.rps > 0 ? result.rps / baseline.rps : 0, targets: scenario.targets });
  }

  console.log('measuring chat with and without a webhook on every event (alternating runs) …');
  const pairLoad = { connections, warmupSec: Math.min(warmupSec, 2), durationSec: Math.max(3, Math.round(durationSec / 2)) };
  const chatWithWebhook = await measureChatWithWebhook(fixtures, dataDir, receiver.url, chatQuestions(await chatKnowledge(fixtures), 200), pairLoad);
  if (chatWithWebhook.failed > 0) problems.push(`chat with a webhook: ${chatWithWebhook.failed} failed requests`);
  const benchWebhookId = await registerWebhook(fixtures, receiver.url, ['message.user', 'message.assistant', 'session.started']);
  console.log('measuring webhook deliveries from a backlog of 20,000 …');
  const deliveries = await measureDeliveryRate(dataDir, fixtures.botId, benchWebhookId, receiver.url);
  console.log('measuring the time from an event to its receiver (100 chat turns, one at a time) …');
  const eventLag = await measureEventLag(fixtures, dataDir, receiver.url, chatQuestions(await chatKnowledge(fixtures), 100, 11));

  console.log('measuring knowledge ingestion …');
  const writer = await fixtures.api<{ key: string }>('POST', '/api/keys', {
    token: fixtures.token,
    body: { bot_id: fixtures.botId, name: 'bench writer', scopes: ['read', 'write'] },
  });
  const latency = [await measureIngestion(parley.url, writer.key)];
  console.log('measuring retrieval + parley-local answers (loading 1,000 sources first) …');
  latency.push(await measureLocalAnswers());

  const questions = chatQuestions(await chatKnowledge(fixtures), 220, 7);
  console.log('measuring the time to the first token on the stream (parley-local) …');
  latency.push(await measureFirstToken(parley.url, fixtures.botId, questions));
  console.log('measuring the OpenAI-compatible path against a local fake provider …');
  await fixtures.api('PATCH', `/api/dashboard/bots/${fixtures.botId}`, { token: fixtures.token, body: { selected_model: 'gpt-4o-mini' } });
  const overhead = await measureProviderOverhead(parley.url, fixtures.botId, providerBaseUrl, questions);
  console.log('measuring chat through the provider, beside a 20-line proxy to it …');
  const throughput = await measureProviderThroughput(fixtures, proxy.url, load, parley.pid);
  if (throughput.failed > 0) problems.push(`chat through the provider: ${throughput.failed} failed requests`);
  console.log('measuring analytics and the scorecard on a bot with 1,000,000 messages …');
  latency.push(...(await measureAnalytics(fixtures, dataDir)));
  console.log(`measuring the widget: script size, and ${process.env.BENCH_WIDGET_LOADS ?? 20} demo page loads in headless Chromium …`);
  const widget = await measureWidget(fixtures);

  report(rows, load, problems, latency, overhead, throughput, { deliveries, eventLag, chatWithWebhook }, widget);

  await cleanup();
  if (problems.length > 0) {
    console.error(`bench: FAILED\n  - ${problems.join('\n  - ')}`);
    process.exit(1);
  }
  process.exit(0);
}

function resolve<T>(value: FromFixtures<T> | undefined, fixtures: Fixtures): T | undefined {
  return typeof value === 'function' ? (value as (f: Fixtures) => T)(fixtures) : value;
}

async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort(HOST));
  return [...ports];
}

/** An account (open sign-up), a bot and an API key, made through the real API. */
async function makeFixtures(parleyUrl: string): Promise<Fixtures> {
  async function api<T = any>(method: string, path: string, options: { token?: string; body?: unknown; expect?: number } = {}): Promise<T> {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(parleyUrl + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    const expect = options.expect ?? (method === 'POST' ? 201 : 200);
    if (res.status !== expect) throw new Error(`setup: ${method} ${path} answered ${res.status} (expected ${expect}): ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  const email = `bench-${Date.now().toString(36)}@example.com`;
  const signup = await api<{ token: string; account: { id: string } }>('POST', '/api/auth/signup', {
    body: { email, password: 'bench correct horse battery' },
  });
  const bot = await api<{ id: string }>('POST', '/api/dashboard/bots', { token: signup.token, body: { name: 'Bench bot' } });
  const key = await api<{ id: string; key: string }>('POST', '/api/keys', { token: signup.token, body: { bot_id: bot.id, name: 'bench key' } });
  return { parleyUrl, token: signup.token, accountId: signup.account.id, botId: bot.id, key: key.key, keyId: key.id, api };
}

function report(
  rows: Row[],
  load: { connections: number; durationSec: number; warmupSec: number },
  problems: string[],
  latency: LatencyRow[],
  overhead: Awaited<ReturnType<typeof measureProviderOverhead>>,
  throughput: ProviderThroughput,
  webhooks: {
    deliveries: Awaited<ReturnType<typeof measureDeliveryRate>>;
    eventLag: Awaited<ReturnType<typeof measureEventLag>>;
    chatWithWebhook: Awaited<ReturnType<typeof measureChatWithWebhook>>;
  },
  widget: WidgetFigures,
): void {
  const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '-');
  console.log('');
  console.log(
    table(
      ['scenario', 'req/s (avg)', 'p50 ms', 'p99 ms', 'vs bare', 'non-2xx'],
      rows.map((r) => [
        r.name,
        Math.round(r.result.rps).toString(),
        ms(r.result.p50),
        ms(r.result.p99),
        r.ratio === null ? '-' : `${(r.ratio * 100).toFixed(1)}%`,
        String(r.result.non2xx),
      ]),
      [false, true, true, true, true, true],
    ),
  );
  console.log('');

  const targets: { scenario: string; target: string; value: number; pass: boolean }[] = [];
  for (const row of rows) {
    if (row.ratio === null) continue;
    console.log(`${row.name} / bare = ${(row.ratio * 100).toFixed(1)}%`);
    const t = row.targets;
    if (t?.minRatio !== undefined) {
      const pass = row.ratio >= t.minRatio;
      targets.push({ scenario: row.name, target: `ratio >= ${t.minRatio * 100}%`, value: round(row.ratio, 4), pass });
      console.log(`  target: ratio >= ${t.minRatio * 100}% ........ ${(row.ratio * 100).toFixed(1)}%  ${pass ? 'PASS' : 'FAIL'}`);
    }
    if (t?.minRps !== undefined) {
      const pass = row.result.rps >= t.minRps;
      targets.push({ scenario: row.name, target: `>= ${t.minRps} req/s at ${load.connections} connections`, value: round(row.result.rps, 1), pass });
      console.log(`  target: >= ${t.minRps} req/s at ${load.connections} connections ... ${Math.round(row.result.rps)} req/s  ${pass ? 'PASS' : 'FAIL'}`);
    }
    if (t?.maxP99Ms !== undefined) {
      const pass = row.result.p99 < t.maxP99Ms;
      targets.push({ scenario: row.name, target: `p99 < ${t.maxP99Ms} ms at ${load.connections} connections`, value: round(row.result.p99, 3), pass });
      console.log(`  target: p99 < ${t.maxP99Ms} ms at ${load.connections} connections ... ${ms(row.result.p99)} ms  ${pass ? 'PASS' : 'FAIL'}`);
    }
  }

  console.log('');
  console.log(
    table(
      ['latency', 'samples', 'p50 ms', 'p95 ms', 'target'],
      latency.map((l) => [l.name, String(l.samples), ms(l.p50), ms(l.p95), l.target ? `${l.target.percentile} < ${l.target.maxMs} ms` : '(for scale)']),
      [false, true, true, true, false],
    ),
  );
  for (const l of latency) {
    if (!l.target) continue;
    const value = l.target.percentile === 'p50' ? l.p50 : l.p95;
    const pass = value < l.target.maxMs;
    targets.push({ scenario: l.name, target: `${l.target.percentile} < ${l.target.maxMs} ms`, value: round(value, 3), pass });
    console.log(`  target: ${l.name}: ${l.target.percentile} < ${l.target.maxMs} ms ... ${ms(value)} ms  ${pass ? 'PASS' : 'FAIL'}`);
  }

  console.log('');
  console.log(
    table(
      ['time to first token', 'samples', 'p50 ms', 'p95 ms'],
      [overhead.direct, overhead.viaParley].map((l) => [l.name, String(l.samples), ms(l.p50), ms(l.p95)]),
      [false, true, true, true],
    ),
  );
  const addedPass = overhead.addedP50 < 5;
  targets.push({ scenario: 'OpenAI-compatible path', target: 'added before the first token (p50) < 5 ms', value: round(overhead.addedP50, 3), pass: addedPass });
  console.log(`  target: Parley adds < 5 ms before the first token (p50) ... ${ms(overhead.addedP50)} ms  ${addedPass ? 'PASS' : 'FAIL'}`);

  const providerJson = reportProvider(throughput, load, targets);

  const { deliveries, eventLag, chatWithWebhook } = webhooks;
  console.log('');
  const rps = (xs: number[]) => xs.map((x) => Math.round(x)).join(', ');
  console.log(`chat req/s without a webhook: ${rps(chatWithWebhook.without)}; with one on every event: ${rps(chatWithWebhook.withHook)}`);
  const pairPass = chatWithWebhook.ratio >= 0.9;
  targets.push({ scenario: 'chat with a webhook on every event', target: '>= 90% of chat without (alternating runs)', value: round(chatWithWebhook.ratio, 4), pass: pairPass });
  console.log(`  target: with >= 90% of without ... ${(chatWithWebhook.ratio * 100).toFixed(1)}%  ${pairPass ? 'PASS' : 'FAIL'}`);
  console.log(
    `webhooks: ${deliveries.delivered} deliveries from a backlog in ${deliveries.seconds.toFixed(2)} s = ${Math.round(deliveries.perSecond)}/s; ` +
      `event to receiver p50 ${ms(eventLag.p50_ms)} ms, p95 ${ms(eventLag.p95_ms)} ms (${eventLag.received} deliveries)`,
  );
  const ratePass = deliveries.perSecond >= 1000;
  targets.push({ scenario: 'webhook deliveries', target: '>= 1,000 per second to a local receiver', value: round(deliveries.perSecond, 1), pass: ratePass });
  console.log(`  target: >= 1,000 deliveries per second ... ${Math.round(deliveries.perSecond)}/s  ${ratePass ? 'PASS' : 'FAIL'}`);

  console.log('');
  const widgetReport = reportWidget(widget);
  targets.push(widgetReport.target);

  const json = {
    connections: load.connections,
    warmup_sec: load.warmupSec,
    duration_sec: load.durationSec,
    node: process.version,
    scenarios: rows.map((r) => ({
      name: r.name,
      rps: round(r.result.rps, 1),
      p50_ms: round(r.result.p50, 3),
      p99_ms: round(r.result.p99, 3),
      mean_ms: round(r.result.mean, 3),
      max_ms: round(r.result.max, 3),
      requests: r.result.total,
      non2xx: r.result.non2xx,
      errors: r.result.errors,
      timeouts: r.result.timeouts,
      status_codes: r.result.statusCodes,
      ratio_to_bare: r.ratio === null ? null : round(r.ratio, 4),
    })),
    latency: [...latency, overhead.direct, overhead.viaParley].map((l) => ({ name: l.name, samples: l.samples, p50_ms: round(l.p50, 3), p95_ms: round(l.p95, 3) })),
    provider_added_p50_ms: round(overhead.addedP50, 3),
    provider: providerJson,
    widget: widgetReport.json,
    webhooks: { chat_rps_without: chatWithWebhook.without.map((x) => round(x, 1)), chat_rps_with: chatWithWebhook.withHook.map((x) => round(x, 1)), chat_ratio: round(chatWithWebhook.ratio, 4), deliveries_per_sec: round(deliveries.perSecond, 1), delivered: deliveries.delivered, event_to_receiver_p50_ms: eventLag.p50_ms, event_to_receiver_p95_ms: eventLag.p95_ms },
    targets,
    ok: problems.length === 0,
    problems,
  };
  console.log(`BENCH_JSON ${JSON.stringify(json)}`);
}

/** Prints chat through the provider beside the proxy, adds its targets, and returns its JSON. */
function reportProvider(figures: ProviderThroughput, load: { connections: number }, targets: { scenario: string; target: string; value: number; pass: boolean }[]) {
  const rps = (xs: number[]) => xs.map((x) => Math.round(x)).join(', ');
  console.log('');
  console.log(`chat through the provider, req/s at ${load.connections} connections: 20-line proxy ${rps(figures.proxyRps)}; Parley ${rps(figures.parleyRps)}`);
  const ratioPass = figures.ratio >= PROVIDER_TARGETS.minRatio;
  targets.push({ scenario: 'chat through the provider', target: `>= ${PROVIDER_TARGETS.minRatio * 100}% of the proxy's requests/s`, value: round(figures.ratio, 4), pass: ratioPass });
  console.log(`  target: Parley >= ${PROVIDER_TARGETS.minRatio * 100}% of the proxy ... ${(figures.ratio * 100).toFixed(1)}%  ${ratioPass ? 'PASS' : 'FAIL'}`);
  console.log(`one request at a time, p50: proxy ${figures.proxyP50.toFixed(2)} ms, Parley ${figures.parleyP50.toFixed(2)} ms`);
  const addedPass = figures.addedP50 < PROVIDER_TARGETS.maxAddedMs;
  targets.push({ scenario: 'chat through the provider', target: `added over the proxy (p50, one at a time) < ${PROVIDER_TARGETS.maxAddedMs} ms`, value: round(figures.addedP50, 3), pass: addedPass });
  console.log(`  target: Parley adds < ${PROVIDER_TARGETS.maxAddedMs} ms over the proxy (p50) ... ${figures.addedP50.toFixed(2)} ms  ${addedPass ? 'PASS' : 'FAIL'}`);
  const cpu = figures.cpuMsPerRequest;
  if (cpu) console.log(`Parley's CPU per request under load: ${cpu.provider.toFixed(2)} ms through the provider, ${cpu.local.toFixed(2)} ms with parley-local (same bot, no knowledge)`);
  return {
    proxy_rps: figures.proxyRps.map((x) => round(x, 1)),
    parley_rps: figures.parleyRps.map((x) => round(x, 1)),
    ratio: round(figures.ratio, 4),
    proxy_p50_ms: round(figures.proxyP50, 3),
    parley_p50_ms: round(figures.parleyP50, 3),
    added_p50_ms: round(figures.addedP50, 3),
    ...(figures.cpuMsPerRequest && { cpu_ms_per_request: { provider: round(figures.cpuMsPerRequest.provider, 3), local: round(figures.cpuMsPerRequest.local, 3) } }),
  };
}

/** Waits until a child that serves no health route accepts connections. */
async function waitForPort(server: { url: string }, timeoutMs = 30_000): Promise<void> {
  const { hostname, port } = new URL(server.url);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(Number(port), hostname, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`${server.url} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

main().catch(async (err) => {
  console.error('bench: error:', err instanceof Error ? err.message : err, err instanceof Error && err.cause ? `(${String((err.cause as Error).message ?? err.cause)})` : '');
  await cleanup();
  process.exit(1);
});
