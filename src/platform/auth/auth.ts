/**
 * The one authentication layer. Each route declares what it accepts (`config.auth`); the hook
 * attached to it resolves the caller from its credential, then enforces kind, scope and the credential's own
 * checks (an API key's IP allowlist), and runs the post-authentication steps (per-credential rate
 * limit, usage counting). Features add credential kinds by registering resolvers.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '../errors.ts';
import { appendRouteHook } from '../route-hooks.ts';
import { hasScope, TAB_NAMES, type Principal, type PrincipalKind, type Scope, type Tab } from './principal.ts';

export interface AuthRequirement {
  accepts: readonly PrincipalKind[];
  scope?: Scope;
  /**
   * The dashboard tab whose work the route does: a key or token made by a member who does not
   * hold that tab now is refused, so that a key never reaches past its maker's tabs.
   */
  tab?: Tab;
  /**
   * A body or query field that may carry the credential when there is no Authorization header
   * (widget access: `bot_id`). Such routes authenticate once the body is parsed.
   */
  credentialField?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRequirement;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /**
     * Whose valid credential was presented, set as soon as it is known, even when the call is then
     * refused (scope, tab, IP allowlist): for the audit log only, never for access.
     */
    presentedBy: Principal | null;
    /** The bot a call acted on when the credential does not say (an OAuth token's X-Bot-Id): for the audit log. */
    auditBotId: string | null;
    /** True when the dashboard session came from the cookie rather than a bearer header. */
    viaCookie: boolean;
  }
}

/** Turns a presented credential into a principal, or null when it is unknown, expired or revoked. */
export interface CredentialResolver {
  /** Cheap test of the credential's shape (usually its prefix). */
  matches(credential: string): boolean;
  /** The caller, or null for an unknown credential; synchronous when the answer is cached. */
  resolve(credential: string, request: FastifyRequest): Principal | null | Promise<Principal | null>;
  /** What a caller is told when the credential does not resolve. */
  invalidDetail: string;
  /** Checks beyond scope, e.g. the key's IP allowlist; throws a domain error to refuse. */
  authorize?(principal: Principal, request: FastifyRequest): void;
}

export type AfterAuthenticate = (principal: Principal, request: FastifyRequest) => Promise<void> | void;

export const SESSION_COOKIE = 'parley_session';

/**
 * Requirement for `/api/v1/*` routes: an API key or an OAuth token holding `scope`, made by a member
 * who holds `tab` (when the route does the work of a dashboard tab).
 */
export function apiAccess(scope: Scope, tab?: Tab): AuthRequirement {
  return tab ? { accepts: ['api_key', 'oauth'], scope, tab } : { accepts: ['api_key', 'oauth'], scope };
}

/** Requirement for dashboard routes: a signed-in user. */
export const dashboardAccess: AuthRequirement = { accepts: ['dashboard'] };

const KIND_NAMES: Record<PrincipalKind, string> = {
  api_key: 'an API key',
  oauth: 'an OAuth access token',
  dashboard: 'a dashboard session',
  widget: 'a bot id',
};

function describeKinds(kinds: readonly PrincipalKind[]): string {
  const names = kinds.map((k) => KIND_NAMES[k]);
  return names.length <= 1 ? (names[0] ?? 'a credential') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** The bearer credential of a request, if any. */
export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

export interface AuthLayer {
  addResolver(resolver: CredentialResolver): void;
  afterAuthenticate(step: AfterAuthenticate): void;
  /**
   * Authenticates a request by hand, for routes that find the credential while reading the body
   * (a multipart upload's `bot_id` field); `presented` stands in for `credentialField`.
   */
  authenticate(request: FastifyRequest, requirement: AuthRequirement, presented?: string): Promise<void>;
}

/** Installs the authentication hook on the root instance. */
export function installAuth(app: FastifyInstance, options: { publicUrl: string }): AuthLayer {
  const resolvers: CredentialResolver[] = [];
  const afterSteps: AfterAuthenticate[] = [];
  const publicOrigin = new URL(options.publicUrl).origin;

  app.decorateRequest('principal', null);
  app.decorateRequest('presentedBy', null);
  app.decorateRequest('auditBotId', null);
  app.decorateRequest('viaCookie', false);

  async function authenticate(request: FastifyRequest, requirement: AuthRequirement, presented?: string): Promise<void> {
    let credential = bearerOf(request);
    if (!credential && request.headers.authorization) {
      throw new UnauthorizedError('Malformed Authorization header: expected "Bearer <credential>"');
    }
    if (!credential && requirement.credentialField) credential = presented ?? fieldOf(request, requirement.credentialField);
    if (!credential && requirement.accepts.includes('dashboard')) {
      credential = sessionCookieOf(request);
      if (credential) request.viaCookie = true;
    }
    if (!credential) {
      throw new UnauthorizedError(`Missing credential: this endpoint needs ${describeKinds(requirement.accepts)} as "Authorization: Bearer <credential>"`);
    }

    const resolver = resolvers.find((r) => r.matches(credential));
    if (!resolver) throw new UnauthorizedError(`Invalid credential: this endpoint needs ${describeKinds(requirement.accepts)}`);
    const resolved = resolver.resolve(credential, request);
    const principal = resolved instanceof Promise ? await resolved : resolved;
    if (!principal) throw new UnauthorizedError(resolver.invalidDetail);
    request.presentedBy = principal;
    if (!requirement.accepts.includes(principal.kind)) {
      throw new UnauthorizedError(`This endpoint needs ${describeKinds(requirement.accepts)}, not ${KIND_NAMES[principal.kind]}`);
    }
    if (requirement.scope && 'scopes' in principal && !hasScope(principal.scopes, requirement.scope)) {
      throw new ForbiddenError(`This credential lacks the '${requirement.scope}' scope`);
    }
    const tab = requirement.tab;
    if (tab && 'memberTabs' in principal && principal.memberTabs && !principal.memberTabs.includes(tab)) {
      throw new ForbiddenError(`This credential was made by a member without the ${TAB_NAMES[tab]} tab, which this endpoint needs`);
    }
    resolver.authorize?.(principal, request);
    if (request.viaCookie && !isSafeMethod(request.method)) assertSameOrigin(request, publicOrigin);

    request.principal = principal;
    for (const step of afterSteps) {
      const pending = step(principal, request);
      if (pending) await pending;
    }
  }

  app.addHook('onRoute', (route) => {
    const requirement = route.config?.auth;
    if (!requirement) return;
    // A credential in the body can only be read once the body is parsed and validated.
    const stage = requirement.credentialField ? 'preHandler' : 'onRequest';
    appendRouteHook(route, stage, async function authenticateRoute(request: FastifyRequest) {
      await authenticate(request, requirement);
    });
  });

  return {
    addResolver: (resolver) => void resolvers.push(resolver),
    afterAuthenticate: (step) => void afterSteps.push(step),
    authenticate,
  };
}

/** A string field of the parsed body, else of the query string. */
function fieldOf(request: FastifyRequest, name: string): string | undefined {
  for (const source of [request.body, request.query]) {
    const value = source !== null && typeof source === 'object' ? (source as Record<string, unknown>)[name] : undefined;
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}

function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/** The dashboard session cookie, parsed only for the requests that may use it. */
function sessionCookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header ? request.server.parseCookie(header)[SESSION_COOKIE] : undefined;
}

/**
 * CSRF defence for cookie-authenticated writes: the browser's Origin (or Referer) must be this
 * service. Bearer-authenticated requests need no such check (a browser never adds the header).
 */
function assertSameOrigin(request: FastifyRequest, publicOrigin: string): void {
  const source = request.headers.origin ?? request.headers.referer;
  if (!source) throw new ForbiddenError('Cross-site request refused: missing Origin header');
  let origin: string;
  try {
    origin = new URL(source).origin;
  } catch {
    throw new ForbiddenError('Cross-site request refused: invalid Origin header');
  }
  const hostOrigin = `${request.protocol}://${request.headers.host ?? ''}`;
  if (origin !== publicOrigin && origin !== hostOrigin) {
    throw new ForbiddenError('Cross-site request refused: Origin does not match this service');
  }
}

/** The principal of an authenticated route, narrowed to `kind`; fails closed if a route forgot to require it. */
export function principalOf<K extends PrincipalKind>(request: FastifyRequest, kind: K): Extract<Principal, { kind: K }>;
export function principalOf(request: FastifyRequest): Principal;
export function principalOf(request: FastifyRequest, kind?: PrincipalKind): Principal {
  const principal = request.principal;
  if (!principal || (kind && principal.kind !== kind)) throw new UnauthorizedError('Not authenticated');
  return principal;
}
