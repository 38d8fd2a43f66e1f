/**
 * Builds the Fastify application from an already-open runtime. It never listens: the entry point
 * and the tests decide that.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import type { Runtime } from './runtime.ts';
import type { Principal } from './platform/auth/principal.ts';
import { answerClientError, answerFrameworkError, installHttpRules, requestIdFor } from './platform/http-rules.ts';
import { validatorCompiler } from './platform/validation.ts';
import { installAuth } from './platform/auth/auth.ts';
import { createRateLimiter } from './platform/rate-limit/rate-limiter.ts';
import { installIpRateLimit } from './platform/rate-limit/rate-limit.hooks.ts';
import { createAuditTrail, installAudit } from './platform/audit/audit-trail.ts';
import { installOpenApi } from './platform/openapi.ts';
import { createSecretBox, loadMasterKey } from './platform/encryption.ts';
import { createAuthService } from './features/auth/auth.service.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { createTeamService } from './features/team/team.service.ts';
import { teamRoutes } from './features/team/team.routes.ts';
import { accountDefaultModel, createBotService } from './features/bots/bots.service.ts';
import { botRoutes } from './features/bots/bots.routes.ts';
import { botApiRoutes } from './features/bots/bots-api.routes.ts';
import { createKeyService } from './features/keys/keys.service.ts';
import { keyRoutes } from './features/keys/keys.routes.ts';
import { createProviderKeyService } from './features/provider-keys/provider-keys.service.ts';
import { providerKeyRoutes } from './features/provider-keys/provider-keys.routes.ts';
import { createUsageService } from './features/usage/usage.service.ts';
import { usageRoutes } from './features/usage/usage.routes.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import { createKnowledgeService, type PageFetcher } from './features/knowledge/knowledge.service.ts';
import { knowledgeRoutes } from './features/knowledge/knowledge.routes.ts';
import { dashboardKnowledgeRoutes } from './features/knowledge/dashboard-knowledge.routes.ts';
import { startCrawlScheduler } from './features/knowledge/knowledge.jobs.ts';
import { createPageFetcher } from './features/knowledge/page-fetcher.ts';
import { createLocalEngine } from './features/answers/local/local-engine.ts';
import { createProviderEngine } from './features/answers/providers/provider-engine.ts';
import { createProviderEmbedder } from './features/answers/providers/provider-embedder.ts';
import type { AnswerEngine } from './features/answers/answers.types.ts';
import { createConversationService } from './features/conversations/conversations.service.ts';
import { createLiveSessions } from './features/conversations/live-sessions.ts';
import { conversationRoutes } from './features/conversations/conversations.routes.ts';
import { startSessionSweeper } from './features/conversations/conversations.jobs.ts';
import { createChatService } from './features/chat/chat.service.ts';
import { chatRoutes } from './features/chat/chat.routes.ts';
import { widgetResolver } from './features/widget/widget-access.ts';
import { widgetRoutes } from './features/widget/widget.routes.ts';
import { widgetAssetRoutes } from './features/widget/widget-assets.routes.ts';
import { createMediaService } from './features/media/media.service.ts';
import { mediaRoutes } from './features/media/media.routes.ts';
import { createFileStorage } from './platform/storage/file-storage.ts';
import { createMediaLinks, mediaSigningKey } from './features/media/media-links.ts';
import { createInboxService } from './features/inbox/inbox.service.ts';
import { createGuardedFetchWorker } from './platform/outbound/guarded-fetch-worker.ts';
import { createWebhookDispatcher } from './features/webhooks/webhook-dispatcher.ts';
import { createWebhookService } from './features/webhooks/webhooks.service.ts';
import { webhookRoutes } from './features/webhooks/webhooks.routes.ts';
import { createLeadService } from './features/leads/leads.service.ts';
import { leadRoutes } from './features/leads/leads.routes.ts';
import { createCatalogService } from './features/catalog/catalog.service.ts';
import { catalogRoutes } from './features/catalog/catalog.routes.ts';
import { createAnalyticsService } from './features/analytics/analytics.service.ts';
import { analyticsRoutes } from './features/analytics/analytics.routes.ts';
import { inboxRoutes } from './features/inbox/inbox.routes.ts';
import { createOAuthService, oauthConsentKey } from './features/oauth/oauth.service.ts';
import { oauthRoutes } from './features/oauth/oauth.routes.ts';
import { createModelService } from './features/models/models.service.ts';
import { modelRoutes } from './features/models/models.routes.ts';
import { createBillingService } from './features/billing/billing.service.ts';
import { billingRoutes } from './features/billing/billing.routes.ts';
import { dashboardAppRoutes } from './features/dashboard-app/dashboard-app.routes.ts';

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  /** How pages are fetched for URL knowledge (the guarded fetcher by default; tests pass their own). */
  fetchPage?: PageFetcher;
  /** Starts the background jobs (crawl scheduler, session sweeper); the entry point does, tests drive jobs themselves. */
  backgroundJobs?: boolean;
  /** The answer engine (the provider engine with parley-local as fallback by default). */
  engine?: AnswerEngine;
  /** Where the built dashboard is (`web/dashboard/dist/` by default; tests point elsewhere). */
  dashboardDistDir?: string;
}

export async function buildApp(runtime: Runtime, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config, clock, bus } = runtime;
  const { db } = runtime.database;

  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: requestIdFor,
    requestIdHeader: false,
    // Fastify also takes a hop count, which its types omit.
    trustProxy: config.trustProxy as boolean | string,
    bodyLimit: 1024 * 1024,
    // Path segments hold ids: a session id is up to 128 characters (decisions.md), each up to 12
    // bytes percent-encoded; Fastify's default of 100 answered 414 for ids chat had accepted.
    routerOptions: { maxParamLength: 128 * 12 },
    // http-rules.ts answers while closing, before routing and for unparsable bytes, in the one error contract.
    return503OnClosing: false,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    forceCloseConnections: 'idle',
    // Slow clients (slow-loris): Node answers 408 and closes once the headers or the whole request
    // take too long, checked every second; an event stream has been received whole and is not cut.
    requestTimeout: config.httpTimeouts.requestMs,
    keepAliveTimeout: config.httpTimeouts.keepAliveMs,
    http: { headersTimeout: Math.min(config.httpTimeouts.headersMs, config.httpTimeouts.requestMs), connectionsCheckingInterval: 1000 },
  });
  app.setValidatorCompiler(validatorCompiler);
  // No per-request hooks: the auth layer reads the session cookie when it needs it and the auth
  // routes write Set-Cookie themselves.
  await app.register(cookie, { hook: false });

  // Cross-cutting rules, in the order they apply to a request.
  installHttpRules(app);
  const limiter = createRateLimiter(runtime.windowStore, config.rateLimits, clock);
  installIpRateLimit(app, limiter);
  const auth = installAuth(app, { publicUrl: config.publicUrl });
  const audit = createAuditTrail({ appendRows: runtime.database.appendRows, flushMs: config.auditFlushMs, log: app.log });
  installAudit(app, audit, clock);
  await installOpenApi(app, { publicUrl: config.publicUrl });

  // Features.
  const team = createTeamService({ db, clock, bus });
  const accounts = createAuthService({
    db,
    dialect: runtime.database.dialect,
    clock,
    signupMode: config.signup,
    passwordHashCost: config.passwordHashCost,
    sessionTtlSec: config.dashboardSessionTtlSec,
    invitations: team.claimer,
    loginThrottle: limiter,
  });
  const bots = createBotService({ db, clock, bus, defaultModel: accountDefaultModel(config.providers), defaultMonthlyQuota: config.monthlyMessages });
  // Counters and last-use times are a row per key: written once a second at most, since each write
  // on the main connection may wait for the audit thread's transaction. Reads flush them first.
  const counterFlushMs = Math.max(config.auditFlushMs, 1000);
  const keys = createKeyService({ db, clock, bus, flushMs: counterFlushMs, log: app.log });
  const usage = createUsageService({ db, clock, flushMs: counterFlushMs, log: app.log });
  const masterKey = loadMasterKey({ secretKey: config.secretKey, dataDir: config.dataDir });
  const secrets = createSecretBox(masterKey);
  if (config.databaseUrl && !config.secretKey) app.log.warn('PARLEY_SECRET_KEY is unset: secrets are encrypted under DATA_DIR/secret.key, which every instance must share');
  const providerKeys = createProviderKeyService({ db, clock, secrets });
  const pageFetcher = options.fetchPage ? undefined : createPageFetcher({ allowPrivateNetwork: config.allowPrivateNetwork });
  const providerEmbedder = config.embeddingModel ? createProviderEmbedder({ choice: config.embeddingModel, pool: config.providers }) : undefined;
  const knowledge = createKnowledgeService({
    db,
    bus,
    dialect: runtime.database.dialect,
    clock,
    fetchPage: options.fetchPage ?? pageFetcher,
    log: app.log,
    providerEmbedder,
  });

  const engine =
    options.engine ??
    createProviderEngine({
      pool: config.providers,
      timeoutMs: config.providerTimeoutMs,
      keyFor: providerKeys.keyFor,
      retriever: knowledge.retriever,
      fallback: createLocalEngine({ retriever: knowledge.retriever }),
    });
  const conversations = createConversationService({ db, inSharedTransaction: runtime.database.inSharedTransaction, clock, idleMinutes: config.sessionIdleMinutes });
  const live = createLiveSessions(bus);
  const mediaStorage = createFileStorage(config.storage, { dataDir: config.dataDir, db, seam: runtime.database.dialect });
  const mediaLinks = createMediaLinks({ key: mediaSigningKey(masterKey), publicUrl: config.publicUrl, ttlSec: config.mediaUrlTtlSec, clock });
  const media = createMediaService({ db, clock, bus, storage: mediaStorage, links: mediaLinks, conversations, log: app.log });
  const leads = createLeadService({ db, clock });
  const chat = createChatService({ conversations, engine, usage, attachmentsFor: media.attachmentsFor, live, leads, log: app.log });

  auth.addResolver(keys.resolver);
  auth.addResolver(widgetResolver(bots));
  auth.addResolver({
    matches: (credential) => credential.startsWith('parley_ds_'),
    resolve: (credential) => accounts.resolveSession(credential),
    invalidDetail: 'Invalid or expired dashboard session',
  });
  const oauth = createOAuthService({
    db,
    clock,
    issuer: config.publicUrl,
    accessTokenTtlSec: config.accessTokenTtlSec,
    refreshTokenTtlSec: config.refreshTokenTtlSec,
    consentKey: oauthConsentKey(masterKey),
  });
  auth.addResolver(oauth.resolver);
  // Synchronous unless the rate-limit store is shared (Redis): no promise per request otherwise.
  auth.afterAuthenticate((principal, request) => {
    if (principal.kind === 'widget') {
      return request.routeOptions.config.widgetRateLimit ? limiter.checkWidget(request.ip, principal.botId) : undefined;
    }
    const pending = principal.kind === 'api_key' || principal.kind === 'oauth' ? limiter.checkCredential(principal.credentialId) : undefined;
    if (pending) return pending.then(() => countCall(principal));
    countCall(principal);
  });
  function countCall(principal: Principal): void {
    if (principal.kind !== 'api_key') return;
    keys.markUsed(principal.keyId);
    usage.recordApiCall(principal.keyId, principal.botId);
  }

  await app.register(healthRoutes({ checkReady: runtime.checkReady }));
  await app.register(authRoutes({ auth: accounts, secureCookies: config.publicUrl.startsWith('https:'), signupMode: config.signup }));
  await app.register(teamRoutes({ team }));
  await app.register(botRoutes({ bots }));
  await app.register(botApiRoutes({ bots }));
  await app.register(keyRoutes({ keys, bots }));
  await app.register(usageRoutes({ usage }));
  await app.register(providerKeyRoutes({ providerKeys, bots }));
  await app.register(knowledgeRoutes({ knowledge, bots }));
  await app.register(dashboardKnowledgeRoutes({ knowledge, bots, maxUploadBytes: config.maxUploadBytes }));
  await app.register(chatRoutes({ chat, bots }));
  await app.register(conversationRoutes({ conversations, bots, onSessionCleared: media.removeSessionFiles }));
  await app.register(widgetRoutes({ chat, bots, conversations, live, media, heartbeatMs: config.sseHeartbeatMs, maxUploadBytes: config.maxUploadBytes }));
  await app.register(widgetAssetRoutes({ bots, publicUrl: config.publicUrl }));
  await app.register(mediaRoutes({ media, bots, auth, incomingDir: mediaStorage.incomingDir, maxUploadBytes: config.maxUploadBytes }));
  // Webhook receivers are users' addresses: the guarded client, no redirects, one time-out per
  // attempt, on a worker thread so that sending thousands a second does not slow chat.
  const webhookSend = createGuardedFetchWorker({
    allowPrivateNetwork: config.allowPrivateNetwork,
    timeoutMs: config.webhookTimeoutMs,
    maxRedirects: 0,
    maxBytes: 1024 * 1024,
    userAgent: 'ParleyWebhooks/0.1',
  });
  const dispatcher = createWebhookDispatcher({
    db,
    inSharedTransaction: runtime.database.inSharedTransaction,
    seam: runtime.database.dialect,
    clock,
    secrets,
    send: webhookSend,
    retryDelaysSec: config.webhookRetryDelaysSec,
    timeoutMs: config.webhookTimeoutMs,
    log: app.log,
  });
  const webhooks = createWebhookService({ db, clock, secrets, dispatcher, outbound: { allowPrivateNetwork: config.allowPrivateNetwork } });
  await app.register(webhookRoutes({ webhooks, bots }));
  await app.register(leadRoutes({ leads, bots, conversations }));
  const catalog = createCatalogService({ db, seam: runtime.database.dialect, clock, secrets, knowledge, publicUrl: config.publicUrl });
  await app.register(catalogRoutes({ catalog, bots }));
  await app.register(analyticsRoutes({ analytics: createAnalyticsService({ db, clock }), bots }));
  const inbox = createInboxService({ db, clock, conversations, live, bots, onSessionCleared: media.removeSessionFiles, attachmentsOf: media.sessionAttachments, log: app.log });
  await app.register(inboxRoutes({ inbox, bots, heartbeatMs: config.sseHeartbeatMs }));
  await app.register(oauthRoutes({ oauth, auth, describeUser: (user) => accounts.describe(user) }));
  const models = createModelService({
    pool: config.providers,
    botKeyProviders: async (botId) => (await providerKeys.list(botId)).map((key) => key.provider),
    now: () => clock.now(),
  });
  await app.register(modelRoutes({ models, bots }));
  const billing = createBillingService({ clock, messagesThisMonth: conversations.messagesThisMonth, listBots: bots.list });
  await app.register(billingRoutes({ billing }));
  await app.register(dashboardAppRoutes({ distDir: options.dashboardDistDir }));

  const crawler = options.backgroundJobs ? startCrawlScheduler({ knowledge, intervalMs: config.crawlCheckMs, log: app.log }) : undefined;
  const sweeper = options.backgroundJobs ? startSessionSweeper({ conversations, intervalMs: config.sessionSweepMs, log: app.log }) : undefined;

  // In-flight requests have finished when onClose runs: write what is buffered.
  app.addHook('onClose', async () => {
    await crawler?.stop();
    await sweeper?.stop();
    await knowledge.drain();
    await dispatcher.stop();
    await webhookSend.close();
    await pageFetcher?.close();
    await Promise.all([audit.close(), usage.close(), keys.close()]);
    await mediaStorage.close();
  });

  return app;
}
