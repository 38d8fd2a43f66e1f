/**
 * Bodies, parameters and answers of the OAuth endpoints (interface.md §4 "OAuth2", decisions.md
 * "OAuth2 authorization server"). Form fields are all optional strings here: which are required
 * depends on the grant, and the service answers a missing one with the OAuth error it calls for.
 */
import { Type, type Static } from 'typebox';
import { SCOPES } from '../../platform/auth/principal.ts';

const EXAMPLE_CLIENT_ID = '0b5f8e0c-3a47-4d8e-9a51-6f2d7c1e9b20';
const EXAMPLE_REDIRECT = 'https://app.example.com/oauth/callback';
const EXAMPLE_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** Every OAuth error body: RFC 6749 §5.2 plus `detail`, the same text, like every other error. */
export const OAuthErrorSchema = Type.Object(
  {
    error: Type.String({ description: 'RFC 6749 §5.2 (or RFC 7591 §3.2.2) error code' }),
    error_description: Type.String(),
    detail: Type.String({ description: 'The same text as error_description' }),
  },
  { examples: [{ error: 'invalid_grant', error_description: 'The authorization code has expired (codes live 10 minutes)', detail: 'The authorization code has expired (codes live 10 minutes)' }] },
);

/** The error responses of a JSON OAuth endpoint. */
export const oauthErrorResponses = {
  400: OAuthErrorSchema,
  401: OAuthErrorSchema,
  403: OAuthErrorSchema,
  429: OAuthErrorSchema,
};

/**
 * A protocol parameter: printable ASCII (RFC 6749 Appendix A, VSCHAR), which also keeps bytes no
 * database column should hold (NUL) out of every lookup.
 */
const Param = (description: string, example?: string) =>
  Type.Optional(Type.String({ maxLength: 4096, pattern: '^[\\x20-\\x7E]*$', description, ...(example && { examples: [example] }) }));

// ---- Registration (RFC 7591) ----

export const ClientRegistrationSchema = Type.Object(
  {
    client_name: Type.String({ minLength: 1, maxLength: 200, description: 'Shown to users on the consent page' }),
    redirect_uris: Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), {
      minItems: 1,
      maxItems: 20,
      description:
        'Exact redirect URIs: https, or http on 127.0.0.1, [::1] or localhost; no fragment, and no code, state, error, error_description, error_uri or iss in the query',
    }),
    token_endpoint_auth_method: Type.Optional(
      Type.Enum(['none', 'client_secret_post', 'client_secret_basic'], {
        description:
          '`client_secret_post` or `client_secret_basic`: a confidential client with a secret, which it may send in the body or as HTTP Basic either way; `none` (default): a public client',
      }),
    ),
  },
  { examples: [{ client_name: 'Acme CRM', redirect_uris: [EXAMPLE_REDIRECT], token_endpoint_auth_method: 'client_secret_post' }] },
);
export type ClientRegistration = Static<typeof ClientRegistrationSchema>;

export const RegisteredClientSchema = Type.Object(
  {
    client_id: Type.String(),
    client_name: Type.String(),
    redirect_uris: Type.Array(Type.String()),
    token_endpoint_auth_method: Type.Enum(['none', 'client_secret_post', 'client_secret_basic']),
    grant_types: Type.Array(Type.String()),
    response_types: Type.Array(Type.String()),
    client_id_issued_at: Type.Integer({ description: 'Unix time in seconds' }),
    client_secret: Type.Optional(Type.String({ description: 'Confidential clients only (`parley_cs_…`); shown this once' })),
    client_secret_expires_at: Type.Optional(Type.Integer({ description: '0: the secret does not expire' })),
  },
  {
    examples: [
      {
        client_id: EXAMPLE_CLIENT_ID,
        client_name: 'Acme CRM',
        redirect_uris: [EXAMPLE_REDIRECT],
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        client_id_issued_at: 1793534400,
        client_secret: 'parley_cs_Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5',
        client_secret_expires_at: 0,
      },
    ],
  },
);
export type RegisteredClient = Static<typeof RegisteredClientSchema>;

// ---- Authorization (RFC 6749 §4.1.1, RFC 7636 §4.3) ----

const authorizeFields = {
  response_type: Param('Must be `code`', 'code'),
  client_id: Param('The registered client', EXAMPLE_CLIENT_ID),
  redirect_uri: Param('One of the client’s registered redirect URIs, exactly', EXAMPLE_REDIRECT),
  scope: Param(`Space-separated, from: ${SCOPES.join(', ')}; default \`read\``, 'read write'),
  state: Param('Returned unchanged with the answer; the client must check it', 'af0ifjsldkj'),
  code_challenge: Param('BASE64URL(SHA-256(code_verifier)), PKCE (RFC 7636)', EXAMPLE_CHALLENGE),
  code_challenge_method: Param('`S256` (the only method; S256 when absent)', 'S256'),
};

export const AuthorizeQuerySchema = Type.Object(authorizeFields);
export type AuthorizeParams = Static<typeof AuthorizeQuerySchema>;

export const AuthorizeFormSchema = Type.Object(
  {
    ...authorizeFields,
    decision: Param('`approve` or `deny`', 'approve'),
    csrf_token: Param('The consent form’s token; required with the session cookie, not with a bearer session'),
  },
  {
    examples: [
      {
        response_type: 'code',
        client_id: EXAMPLE_CLIENT_ID,
        redirect_uri: EXAMPLE_REDIRECT,
        scope: 'read write',
        state: 'af0ifjsldkj',
        code_challenge: EXAMPLE_CHALLENGE,
        code_challenge_method: 'S256',
        decision: 'approve',
      },
    ],
  },
);

// ---- Token and revocation (RFC 6749 §4.1.3, §6; RFC 7009 §2.1) ----

export const TokenFormSchema = Type.Object(
  {
    grant_type: Param('`authorization_code` or `refresh_token`', 'authorization_code'),
    code: Param('authorization_code: the code from the redirect'),
    redirect_uri: Param('authorization_code: the redirect_uri of the authorization request', EXAMPLE_REDIRECT),
    code_verifier: Param('authorization_code: the PKCE verifier (43 to 128 characters)'),
    refresh_token: Param('refresh_token: the current refresh token (`parley_ort_…`)'),
    scope: Param('refresh_token: optionally narrower than granted'),
    client_id: Param('The client; optional with HTTP Basic client authentication', EXAMPLE_CLIENT_ID),
    client_secret: Param('Confidential clients only, unless sent as HTTP Basic (never both)'),
  },
  {
    examples: [
      {
        grant_type: 'authorization_code',
        code: 'SplxlOBeZQQYbYS6WxSbIA5tYy0mXJ0tYQ9R6kq2rA8',
        redirect_uri: EXAMPLE_REDIRECT,
        code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
        client_id: EXAMPLE_CLIENT_ID,
      },
    ],
  },
);
export type TokenParams = Static<typeof TokenFormSchema>;

export const TokenResponseSchema = Type.Object(
  {
    access_token: Type.String({ description: '`parley_oat_…`' }),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'Seconds' }),
    refresh_token: Type.String({ description: '`parley_ort_…`; works once: each refresh returns a new one' }),
    scope: Type.String({ description: 'Space-separated granted scopes' }),
  },
  {
    examples: [
      {
        access_token: 'parley_oat_3q2-7wVvKxJbQ4m1yZ8fR0tNcL5hD9sGaE6uIoP2kWj',
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: 'parley_ort_Yh7Tn3Kd9VbQ2xLp6Ws1Mz4Rf8Gc0Ja5Ue2Io7Ny3Bq',
        scope: 'read write',
      },
    ],
  },
);
export type TokenResponse = Static<typeof TokenResponseSchema>;

export const RevokeFormSchema = Type.Object(
  {
    token: Param('The access or refresh token to revoke'),
    token_type_hint: Param('`access_token` or `refresh_token` (optional; both are searched)', 'refresh_token'),
    client_id: Param('The client the token was issued to; optional with HTTP Basic client authentication', EXAMPLE_CLIENT_ID),
    client_secret: Param('Confidential clients only, unless sent as HTTP Basic (never both)'),
  },
  { examples: [{ token: 'parley_ort_Yh7Tn3Kd9VbQ2xLp6Ws1Mz4Rf8Gc0Ja5Ue2Io7Ny3Bq', token_type_hint: 'refresh_token', client_id: EXAMPLE_CLIENT_ID }] },
);
export type RevokeParams = Static<typeof RevokeFormSchema>;

// ---- Metadata (RFC 8414 §2) ----

export const MetadataSchema = Type.Object(
  {
    issuer: Type.String(),
    authorization_endpoint: Type.String(),
    token_endpoint: Type.String(),
    registration_endpoint: Type.String(),
    revocation_endpoint: Type.String(),
    scopes_supported: Type.Array(Type.String()),
    response_types_supported: Type.Array(Type.String()),
    response_modes_supported: Type.Array(Type.String()),
    grant_types_supported: Type.Array(Type.String()),
    token_endpoint_auth_methods_supported: Type.Array(Type.String()),
    revocation_endpoint_auth_methods_supported: Type.Array(Type.String()),
    code_challenge_methods_supported: Type.Array(Type.String()),
    authorization_response_iss_parameter_supported: Type.Boolean(),
  },
  {
    examples: [
      {
        issuer: 'https://parley.example.com',
        authorization_endpoint: 'https://parley.example.com/oauth/authorize',
        token_endpoint: 'https://parley.example.com/oauth/token',
        registration_endpoint: 'https://parley.example.com/oauth/register',
        revocation_endpoint: 'https://parley.example.com/oauth/revoke',
        scopes_supported: [...SCOPES],
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
        revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
      },
    ],
  },
);

// ---- HTML pages and redirects ----

/** An HTML page answer (the consent page, or a page explaining an error that cannot be redirected). */
export function htmlResponse(description: string, example: string) {
  return { description, content: { 'text/html': { schema: Type.String({ examples: [example] }) } } };
}

/** Examples of the authorization endpoint's pages, abridged. */
export const CONSENT_PAGE_EXAMPLE =
  '<!doctype html>…<h1>Authorize Acme CRM?</h1>…<form method="post" action="/oauth/authorize">…<button type="submit" name="decision" value="approve">Allow</button>…';
export const ERROR_PAGE_EXAMPLE = '<!doctype html>…<h1>This authorization request cannot be completed</h1><p>Unknown client_id: no application is registered under it</p>…';

/** A 302 whose `Location` carries the answer. */
export function redirectResponse(description: string) {
  return Type.Null({ description, headers: { location: Type.String({ description: 'Where the user agent goes next' }) } });
}

/** An error answered as a page to browsers and as JSON to other callers (POST /oauth/authorize). */
export function pageOrJsonError(description: string) {
  return { description, content: { 'application/json': { schema: OAuthErrorSchema }, 'text/html': { schema: Type.String({ examples: [ERROR_PAGE_EXAMPLE] }) } } };
}
