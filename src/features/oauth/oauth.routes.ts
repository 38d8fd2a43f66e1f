/**
 * The OAuth2 authorization server's endpoints: metadata (RFC 8414), client registration
 * (RFC 7591), the authorization endpoint with its consent page (RFC 6749 §4.1.1), the token
 * endpoint (§4.1.3, §6) and revocation (RFC 7009). `POST /oauth/authorize` takes the dashboard
 * session's `Authorization: Bearer`; the token and revocation endpoints take a client's HTTP Basic
 * credentials (RFC 6749 §2.3.1); the others take no `Authorization` header.
 *
 * A user without a session is sent to the dashboard's login page, `/app/login?next=<the
 * authorize path and query>`, which brings them back once signed in.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { dashboardAccess, principalOf, type AuthLayer } from '../../platform/auth/auth.ts';
import type { DashboardPrincipal } from '../../platform/auth/principal.ts';
import { UnauthorizedError } from '../../platform/errors.ts';
import { securityFor } from '../../platform/openapi.ts';
import type { OAuthService } from './oauth.service.ts';
import { renderConsentPage } from './consent-page.ts';
import { answerOAuthError } from './oauth-error-handler.ts';
import { basicClientCredentials, keepFirstValues } from './oauth-rules.ts';
import {
  AuthorizeFormSchema,
  AuthorizeQuerySchema,
  ClientRegistrationSchema,
  CONSENT_PAGE_EXAMPLE,
  htmlResponse,
  MetadataSchema,
  OAuthErrorSchema,
  oauthErrorResponses,
  pageOrJsonError,
  RegisteredClientSchema,
  redirectResponse,
  RevokeFormSchema,
  TokenFormSchema,
  TokenResponseSchema,
} from './oauth.schemas.ts';

/** The dashboard's sign-in page; it returns the user to `next` (a path on this service). */
export const LOGIN_PATH = '/app/login';

export interface OAuthRouteDeps {
  oauth: OAuthService;
  auth: AuthLayer;
  /** The signed-in user's email and account name, for the consent page. */
  describeUser(user: DashboardPrincipal): Promise<{ user: { email: string }; account: { name: string } }>;
}

const tags = ['oauth'];
const FORM = ['application/x-www-form-urlencoded'];

// The authorization parameters each request sent more than once. The schema sees their first value,
// and the service answers the repeat: a 400 page or an error redirect, depending on the parameter.
const repeatedParams = new WeakMap<FastifyRequest, string[]>();
function noteRepeatedParams(part: 'query' | 'body', names: readonly string[]) {
  return async (request: FastifyRequest) => {
    const values = request[part];
    if (values && typeof values === 'object') repeatedParams.set(request, keepFirstValues(values as Record<string, unknown>, names));
  };
}

export function oauthRoutes(deps: OAuthRouteDeps) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const { oauth, auth } = deps;
    app.setErrorHandler(answerOAuthError);

    /** The dashboard user of a GET, or null: the page then sends the browser to sign in instead of answering 401. */
    async function signedInUser(request: FastifyRequest): Promise<DashboardPrincipal | null> {
      try {
        await auth.authenticate(request, dashboardAccess);
      } catch (err) {
        if (err instanceof UnauthorizedError) return null;
        throw err;
      }
      return principalOf(request, 'dashboard');
    }

    // RFC 6749 §4.1.2 and decisions.md ("OAuth redirects"): every redirect is a 302.
    const redirect = (reply: FastifyReply, location: string) => reply.redirect(location, 302);

    app.get('/.well-known/oauth-authorization-server', {
      schema: {
        operationId: 'oauthMetadata',
        tags,
        description: 'Authorization server metadata (RFC 8414): the issuer (`PUBLIC_URL`), endpoints, scopes and supported methods.',
        response: { 200: MetadataSchema, 429: OAuthErrorSchema },
      },
      handler: async () => oauth.metadata(),
    });

    app.post('/oauth/register', {
      config: { oauthErrors: { body: 'json', invalidInput: 'invalid_client_metadata' } },
      schema: {
        operationId: 'oauthRegisterClient',
        tags,
        description:
          'Registers a client (RFC 7591), without authentication. A confidential client (`client_secret_post`) gets its `client_secret` in this answer only. ' +
          'Errors: `invalid_redirect_uri`, `invalid_client_metadata`.',
        body: ClientRegistrationSchema,
        response: { 201: RegisteredClientSchema, 400: OAuthErrorSchema, 415: OAuthErrorSchema, 429: OAuthErrorSchema },
      },
      handler: async (request, reply) => reply.code(201).header('cache-control', 'no-store').send(await oauth.registerClient(request.body)),
    });

    app.get('/oauth/authorize', {
      // Browsers (whose navigations accept text/html) get error pages; other callers the JSON form.
      config: { oauthErrors: { pageForBrowsers: true } },
      preValidation: noteRepeatedParams('query', Object.keys(AuthorizeQuerySchema.properties)),
      schema: {
        operationId: 'oauthAuthorize',
        tags,
        description:
          'The authorization endpoint (RFC 6749 §4.1.1, PKCE S256 mandatory). With a dashboard session it shows the consent page; without one it redirects to ' +
          `\`${LOGIN_PATH}?next=…\`. An unknown client or unregistered redirect_uri gets a 400 (an HTML page for browsers), never a redirect; every other error is a 302 to the redirect_uri with \`error\` and \`state\`.`,
        querystring: AuthorizeQuerySchema,
        security: securityFor(dashboardAccess),
        response: {
          200: htmlResponse('The consent page', CONSENT_PAGE_EXAMPLE),
          302: redirectResponse('To the sign-in page, or to the redirect_uri with `error`, `error_description`, `state` and `iss`'),
          400: pageOrJsonError('Unknown client or redirect_uri, or a malformed request: a page to browsers, JSON to others; never a redirect'),
          429: pageOrJsonError('Too many requests'),
        },
      },
      handler: async (request, reply) => {
        const check = await oauth.checkAuthorizationRequest(request.query, repeatedParams.get(request));
        if (!check.ok) return redirect(reply, check.redirectTo);
        const user = await signedInUser(request);
        if (!user) return redirect(reply, `${LOGIN_PATH}?next=${encodeURIComponent(request.url)}`);
        const refusal = oauth.refusalFor(check.request, user);
        if (refusal) return redirect(reply, refusal);
        const html = renderConsentPage({ request: check.request, csrfToken: oauth.consentToken(user.sessionId), ...(await deps.describeUser(user)) });
        return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
      },
    });

    // The form endpoints: only here are form bodies parsed, and only form bodies (RFC 6749 §3.2, RFC 7009 §2.1).
    await app.register(async (forms) => {
      forms.removeAllContentTypeParsers();
      await forms.register(formbody);
      const formApp = forms.withTypeProvider<TypeBoxTypeProvider>();

      formApp.post('/oauth/authorize', {
        config: { auth: dashboardAccess, oauthErrors: { pageForBrowsers: true, body: 'form' } },
        preValidation: noteRepeatedParams('body', Object.keys(AuthorizeFormSchema.properties)),
        schema: {
          operationId: 'oauthDecide',
          tags,
          description:
            'The user’s decision: the consent form’s post (session cookie, CSRF token and same-origin check) or an automated client with ' +
            '`Authorization: Bearer parley_ds_…` and `decision=approve` (no CSRF token). Answers 302 to the redirect_uri with `code` and `state` (the code works once, for 10 minutes), ' +
            'or with `error=access_denied` on denial.',
          consumes: FORM,
          body: AuthorizeFormSchema,
          response: {
            302: redirectResponse('To the redirect_uri with `code`, `state` and `iss`, or with `error`'),
            400: pageOrJsonError('Unknown client or redirect_uri, or a malformed form'),
            401: pageOrJsonError('No dashboard session'),
            403: pageOrJsonError('Missing or wrong CSRF token, or a cross-site cookie post'),
            429: pageOrJsonError('Too many requests'),
          },
        },
        handler: async (request, reply) => {
          const user = principalOf(request, 'dashboard');
          // Only the cookie rides along on a forged cross-site post; a bearer session cannot.
          if (request.viaCookie) oauth.assertConsentToken(user.sessionId, request.body.csrf_token);
          const check = await oauth.checkAuthorizationRequest(request.body, repeatedParams.get(request));
          if (!check.ok) return redirect(reply, check.redirectTo);
          return redirect(reply, await oauth.decide(check.request, request.body.decision, user));
        },
      });

      formApp.post('/oauth/token', {
        config: { oauthErrors: { body: 'form' } },
        schema: {
          operationId: 'oauthToken',
          tags,
          description:
            'The token endpoint (RFC 6749 §4.1.3, §6), form-encoded only. `grant_type=authorization_code` with `code`, `code_verifier`, `redirect_uri` and `client_id`, ' +
            'or `grant_type=refresh_token` with `refresh_token` and `client_id`; confidential clients add `client_secret`, or send `client_id` and `client_secret` as ' +
            '`Authorization: Basic` instead (RFC 6749 §2.3.1; a failed Basic authentication answers 401 with `WWW-Authenticate`). Refresh tokens rotate: each works once, ' +
            'and presenting a used one revokes every token of its authorization.',
          consumes: FORM,
          body: TokenFormSchema,
          response: { 200: TokenResponseSchema, ...oauthErrorResponses },
        },
        handler: async (request, reply) => {
          const tokens = await oauth.token(request.body, basicClientCredentials(request.headers.authorization));
          return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send(tokens);
        },
      });

      formApp.post('/oauth/revoke', {
        config: { oauthErrors: { body: 'form' } },
        schema: {
          operationId: 'oauthRevoke',
          tags,
          description:
            'Token revocation (RFC 7009), with the client authentication of the token endpoint. A refresh token takes every token of its authorization with it; ' +
            'an unknown token also gets 200.',
          consumes: FORM,
          body: RevokeFormSchema,
          response: { 200: Type.Null({ description: 'Revoked (or not a token of this client); empty body' }), ...oauthErrorResponses },
        },
        handler: async (request, reply) => {
          await oauth.revoke(request.body, basicClientCredentials(request.headers.authorization));
          // RFC 7009 §2.2: the status says it all; an empty body rather than the JSON `null`.
          return (reply as FastifyReply).code(200).header('cache-control', 'no-store').send();
        },
      });
    });
  };
}
