/**
 * The API description: an OpenAPI 3.1 document built from the routes' own schemas (`GET
 * /openapi.json`), and two script-free HTML renderings of it (`GET /docs`, `GET /redoc`). Each
 * operation's security and required scope come from the route's `config.auth`, the same
 * declaration the authentication layer enforces, so the document cannot drift from the checks.
 */
import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import type { AuthRequirement } from './auth/auth.ts';
import { SESSION_COOKIE } from './auth/auth.ts';
import type { PrincipalKind } from './auth/principal.ts';
import { renderApiHtml, type ApiDocument, type HtmlLayout } from './openapi-html.ts';

/** Security schemes of the document, keyed by the name operations refer to. */
export const SECURITY_SCHEMES = {
  apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'parley_sk_…', description: 'A bot-scoped API key (`parley_sk_…`) as `Authorization: Bearer <key>`.' },
  oauthToken: { type: 'http', scheme: 'bearer', bearerFormat: 'parley_oat_…', description: 'An OAuth 2 access token (`parley_oat_…`) as `Authorization: Bearer <token>`.' },
  dashboardSession: { type: 'http', scheme: 'bearer', bearerFormat: 'parley_ds_…', description: 'A dashboard session (`parley_ds_…`) as `Authorization: Bearer <session>`.' },
  dashboardCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: `The dashboard session in the \`${SESSION_COOKIE}\` cookie set at login; writes must come from this origin.` },
  widgetBotId: { type: 'http', scheme: 'bearer', description: "The bot's id as `Authorization: Bearer <bot_id>`: the embeddable widget's public access." },
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

function describeOperation(existing: string | undefined, requirement: AuthRequirement | undefined): string | undefined {
  const lines = existing ? [existing] : [];
  if (requirement?.scope) lines.push(`Scope: ${requirement.scope}`);
  return lines.length > 0 ? lines.join('\n\n') : undefined;
}

/** `@fastify/swagger` transform: adds each route's security and scope from its `config.auth`. */
function withAuth({ schema, url, route }: { schema: FastifySchema | undefined; url: string; route: RouteOptions }) {
  const requirement = route.config?.auth;
  const base: FastifySchema = schema ?? {};
  const description = describeOperation(base.description, requirement);
  return {
    url,
    schema: {
      ...base,
      ...(description && { description }),
      ...(requirement && { security: securityFor(requirement) }),
    },
  };
}

/** Names each response by its status (the plugin calls them all "Default Response"). */
function nameResponses<T extends object>(document: T): T {
  for (const item of Object.values((document as ApiDocument).paths ?? {})) {
    for (const op of Object.values(item ?? {})) {
      for (const [code, response] of Object.entries(op.responses ?? {})) {
        if (response.description === 'Default Response') response.description = STATUS_CODES[code] ?? 'Response';
      }
    }
  }
  return document;
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.1.0';
  } catch {
    return '0.1.0';
  }
}

const DESCRIPTION = [
  'Parley serves AI chat bots grounded in your own knowledge.',
  'Public API paths carry the version segment `/api/v1/` and take a bot-scoped API key or an OAuth access token holding the scope an operation names; dashboard paths take a dashboard session.',
  'Errors answer `{"detail": "…"}`.',
].join('\n\n');

/**
 * Registers `@fastify/swagger` and the documentation routes. Call it before the feature routes are
 * registered: the document only sees routes added after it.
 */
export async function installOpenApi(app: FastifyInstance, options: { publicUrl: string }): Promise<void> {
  await app.register(swagger, {
    mode: 'dynamic',
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Parley API', version: packageVersion(), description: DESCRIPTION },
      servers: [{ url: options.publicUrl }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: withAuth,
    transformObject: (documentObject) => ('openapiObject' in documentObject ? nameResponses(documentObject.openapiObject) : documentObject.swaggerObject),
  });

  const documentOf = () => app.swagger() as ApiDocument;
  const pages = new Map<HtmlLayout, string>();
  const pageFor = (layout: HtmlLayout) => {
    // The routes are fixed once the app is ready, so each page is rendered once.
    let html = pages.get(layout);
    if (html === undefined) pages.set(layout, (html = renderApiHtml(documentOf(), { layout })));
    return html;
  };

  const hidden = { hide: true } satisfies FastifySchema;
  app.get('/openapi.json', { config: { rateLimit: false }, schema: hidden, handler: async () => documentOf() });
  app.get('/docs', {
    config: { rateLimit: false },
    schema: hidden,
    handler: async (_request, reply) => reply.type('text/html; charset=utf-8').send(pageFor('explorer')),
  });
  app.get('/redoc', {
    config: { rateLimit: false },
    schema: hidden,
    handler: async (_request, reply) => reply.type('text/html; charset=utf-8').send(pageFor('reference')),
  });
}
