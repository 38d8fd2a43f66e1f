/**
 * The API description: an OpenAPI 3.1 document built from the routes' own schemas (`GET
 * /openapi.json`), rendered by Swagger UI at `/docs` and Redoc at `/redoc` (`docs-pages.ts`). Each
 * operation's security and required scope come from the route's `config.auth`, the same
 * declaration the authentication layer enforces, so the document cannot drift from the checks;
 * bodies and responses without a declared example get one derived from their schema.
 */
import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { FastifyContextConfig, FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import type { AuthRequirement } from './auth/auth.ts';
import { SESSION_COOKIE } from './auth/auth.ts';
import type { PrincipalKind } from './auth/principal.ts';
import { addDerivedExamples } from './openapi-examples.ts';
import { installDocsPages } from './docs-pages.ts';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The request body as the documentation shows it, by media type, for a route whose body
     * reaches the handler in another form than `body` validates (a multipart form read as a
     * stream, a JSON body read raw to check its signature). Documentation only: never validated.
     */
    documentedBody?: Record<string, unknown>;
  }
}

/** Security schemes of the document, keyed by the name operations refer to. */
export const SECURITY_SCHEMES = {
  apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'parley_sk_…', description: 'A bot-scoped API key (`parley_sk_…`) as `Authorization: Bearer <key>`.' },
  oauthToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'parley_oat_…',
    description:
      'An OAuth 2 access token (`parley_oat_…`) as `Authorization: Bearer <token>`, from the authorization-code grant with PKCE (`/oauth/authorize`, `/oauth/token`). On bot-scoped paths without `{bot_id}`, name the bot with the `X-Bot-Id` header or a `bot_id` query parameter.',
  },
  dashboardSession: { type: 'http', scheme: 'bearer', bearerFormat: 'parley_ds_…', description: 'A dashboard session (`parley_ds_…`) as `Authorization: Bearer <session>`, from `POST /api/auth/signup` or `POST /api/auth/login`.' },
  dashboardCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: `The dashboard session in the \`${SESSION_COOKIE}\` cookie set at login; writes must come from this origin.` },
  widgetBotId: { type: 'http', scheme: 'bearer', description: "The bot's id as `Authorization: Bearer <bot_id>`: the embeddable widget's public access, checked against the bot's allowed domains." },
} as const;

type SchemeName = keyof typeof SECURITY_SCHEMES;

// Total over every credential kind, so a new kind cannot be left out of the document.
const SCHEMES_BY_KIND: Record<PrincipalKind, readonly SchemeName[]> = {
  api_key: ['apiKey'],
  oauth: ['oauthToken'],
  dashboard: ['dashboardSession', 'dashboardCookie'],
  widget: ['widgetBotId'],
};

/** OpenAPI security requirements (alternatives) for a route's `config.auth`; the scope is listed as a role. */
export function securityFor(requirement: AuthRequirement): Array<Record<string, string[]>> {
  const roles = requirement.scope ? [requirement.scope] : [];
  return requirement.accepts.flatMap((kind) => SCHEMES_BY_KIND[kind].map((name) => ({ [name]: roles })));
}

/** The tags in the order the documentation lists them, with what each groups; tags used but not listed here follow. */
const TAGS: Array<{ name: string; description: string }> = [
  { name: 'chat', description: 'Send a message to a bot and get its reply.' },
  { name: 'knowledge', description: 'What a bot answers from: text and web pages.' },
  { name: 'conversations', description: 'Sessions and their messages.' },
  { name: 'leads', description: 'Contact details visitors gave in a conversation.' },
  { name: 'analytics', description: 'Counts of messages, sessions and leads, and the scorecard.' },
  { name: 'usage', description: 'Daily calls and messages of the calling API key.' },
  { name: 'bot', description: 'The bot an API key belongs to.' },
  { name: 'bots', description: "The account's bots (OAuth access token)." },
  { name: 'webhooks', description: 'Signed event deliveries to your server, with retries and a delivery log.' },
  { name: 'api keys', description: 'Keys of the calling credential\'s bot (`admin` scope).' },
  { name: 'widget', description: 'What the embedded chat widget calls, with the bot id as credential.' },
  { name: 'catalog', description: "Your system's product and media changes, signed with the catalog secret." },
  { name: 'oauth', description: 'The OAuth 2 authorization server: client registration, authorization code with PKCE, tokens.' },
  { name: 'auth', description: 'Sign-up, login and the dashboard session.' },
  { name: 'dashboard: bots', description: 'Bots and their settings, as the dashboard manages them.' },
  { name: 'dashboard: knowledge', description: 'Knowledge sources, document uploads and crawl schedules.' },
  { name: 'dashboard: catalog', description: 'Catalog items and the catalog signing secret.' },
  { name: 'dashboard: inbox', description: 'Live conversations, human takeover and operator replies.' },
  { name: 'dashboard: leads', description: 'Leads with search, and their CSV export.' },
  { name: 'dashboard: analytics', description: 'Daily series and unanswered questions.' },
  { name: 'dashboard: webhooks', description: 'Webhooks of a bot, for members with the Webhooks tab.' },
  { name: 'dashboard: api keys', description: 'API keys of the account\'s bots (owner or admin).' },
  { name: 'dashboard: provider keys', description: 'Bring-your-own model provider keys; write-only.' },
  { name: 'dashboard: team', description: 'Members and invitations.' },
  { name: 'health', description: 'Liveness and readiness checks.' },
];

const DESCRIPTION = `Parley serves AI chat bots grounded in your own knowledge. This document describes every endpoint of the service: [\`/docs\`](/docs) lets you try them out, [\`/redoc\`](/redoc) is the reference, [\`/openapi.json\`](/openapi.json) the document itself.

## Authentication

Send a credential as \`Authorization: Bearer <credential>\`. Each operation lists the credentials it accepts and, for API keys and OAuth tokens, the scope it needs (\`chat\`, \`read\`, \`write\` or \`admin\`, which grants every scope).

- **API key** (\`parley_sk_…\`): belongs to one bot. Create one with \`POST /api/keys\` from a dashboard session; it is shown once.
- **OAuth access token** (\`parley_oat_…\`): acts for the account of the user who approved it, with the scopes granted. On bot-scoped paths without \`{bot_id}\`, name the bot with the \`X-Bot-Id\` header.
- **Dashboard session** (\`parley_ds_…\`): from \`POST /api/auth/signup\` or \`POST /api/auth/login\`, or their \`parley_session\` cookie.
- **Bot id**: the widget's public access to \`/api/widget/*\`, checked against the bot's allowed domains.

In the explorer, **Authorize** keeps a credential for *Try it out* in this page only.

## Errors

Errors answer \`{"detail": "…"}\`; a validation error names the field. 401: missing or invalid credential. 403: a scope, role, IP allowlist or origin refuses the call. 404: unknown, or another account's or bot's. 429: a rate limit, with \`Retry-After\`. Unknown paths answer 404 and a known path with the wrong method 405.

## Limits

By default 60 requests per API key and 120 per client IP and endpoint per sliding minute, 30 widget chat messages per visitor and bot; messages up to 4,000 characters; pages of at most 200 items.`;

function describeOperation(existing: string | undefined, requirement: AuthRequirement | undefined): string | undefined {
  const lines = existing ? [existing] : [];
  if (requirement?.scope) lines.push(`Scope: ${requirement.scope}`);
  return lines.length > 0 ? lines.join('\n\n') : undefined;
}

/** `@fastify/swagger` transform: each route's security and scope from its `config.auth`, and its documented body. */
function documentRoute({ schema, url, route }: { schema: FastifySchema | undefined; url: string; route: RouteOptions }) {
  const requirement = route.config?.auth;
  const { documentedBody, ...base } = schema ?? {};
  const description = describeOperation(base.description, requirement);
  const body = documentedBody && { content: Object.fromEntries(Object.entries(documentedBody).map(([type, media]) => [type, { schema: media }])) };
  return {
    url,
    schema: {
      ...base,
      ...(description && { description }),
      ...(requirement && { security: securityFor(requirement) }),
      ...(body && { body }),
    },
  };
}

interface DocumentShape {
  tags?: Array<{ name: string; description?: string }>;
  paths?: Record<string, Record<string, { tags?: string[]; responses?: Record<string, { description?: string; headers?: Record<string, unknown> }> }> | undefined>;
}

/** Names each response by its status (the plugin calls them all "Default Response"), declares `Retry-After` on 429, and lists the tags in use. */
function finishDocument<T extends object>(document: T): T {
  const doc = document as DocumentShape;
  const used = new Set<string>();
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item ?? {})) {
      for (const tag of op.tags ?? []) used.add(tag);
      for (const [code, response] of Object.entries(op.responses ?? {})) {
        if (response.description === 'Default Response') response.description = STATUS_CODES[code] ?? 'Response';
        // Every rate limit answers with the seconds to wait (spec section 7).
        if (code === '429') response.headers = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 }, example: 60 } };
      }
    }
  }
  const known = TAGS.filter((tag) => used.has(tag.name));
  const others = [...used].filter((name) => !TAGS.some((tag) => tag.name === name)).map((name) => ({ name }));
  doc.tags = [...known, ...others];
  return addDerivedExamples(document);
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.1.0';
  } catch {
    return '0.1.0';
  }
}

/** A route as the app declared it (HEAD and hidden routes included), to check the document against. */
export interface DeclaredRoute {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
  config: FastifyContextConfig | undefined;
}

const declaredRoutesByApp = new WeakMap<FastifyInstance, DeclaredRoute[]>();

/** Every route declared on `app` after `installOpenApi`, in order (what `openapi.test.ts` holds the document to). */
export function declaredRoutes(app: FastifyInstance): readonly DeclaredRoute[] {
  return declaredRoutesByApp.get(app) ?? [];
}

/**
 * Registers `@fastify/swagger`, `GET /openapi.json` and the documentation pages. Call it before the
 * feature routes are registered: the document only sees routes added after it.
 */
export async function installOpenApi(app: FastifyInstance, options: { publicUrl: string }): Promise<void> {
  const routes: DeclaredRoute[] = [];
  declaredRoutesByApp.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, schema: route.schema, config: route.config });
  });

  await app.register(swagger, {
    mode: 'dynamic',
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Parley API', version: packageVersion(), description: DESCRIPTION },
      // The origin the document is read from first, so that "Try it out" calls the service that
      // serves the page (the only origin the page's CSP lets it reach), whatever PUBLIC_URL says.
      servers: [
        { url: '/', description: 'This service' },
        { url: options.publicUrl, description: 'PUBLIC_URL' },
      ],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: documentRoute,
    transformObject: (documentObject) => ('openapiObject' in documentObject ? finishDocument(documentObject.openapiObject) : documentObject.swaggerObject),
  });

  app.get('/openapi.json', {
    config: { rateLimit: false },
    schema: { hide: true },
    handler: async () => app.swagger(),
  });
  installDocsPages(app);
}
