/**
 * The one place OAuth endpoints turn errors into answers: `{error, error_description, detail}`
 * (RFC 6749 §5.2, with `detail` so that every error body of the service has it), or an HTML page
 * on the authorization endpoint when a browser asks (a person is reading). Installed on the OAuth
 * routes' plugin only; each route says in `config.oauthErrors` how it answers.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../platform/errors.ts';
import { describeValidationError } from '../../platform/validation.ts';
import { OAuthError, oauthCodeForStatus, type OAuthErrorCode } from './oauth.errors.ts';
import { renderErrorPage } from './consent-page.ts';
import { usesBasicScheme } from './oauth-rules.ts';

export interface OAuthErrorStyle {
  /** An HTML page to a caller that accepts text/html (a browser navigating), JSON to others. */
  pageForBrowsers?: boolean;
  /** What the route's body is, for the message about a wrong content type. */
  body?: 'form' | 'json';
  /** The code of an invalid body (RFC 7591 §3.2.2 has its own); `invalid_request` by default. */
  invalidInput?: OAuthErrorCode;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    oauthErrors?: OAuthErrorStyle;
  }
}

const FORM = 'application/x-www-form-urlencoded';

/** The challenge of a failed HTTP Basic client authentication. */
const BASIC_CHALLENGE = 'Basic realm="Parley OAuth clients"';

/** The OAuth form of any error met on an OAuth route. */
function toOAuthError(error: FastifyError | Error, request: FastifyRequest): OAuthError {
  if (error instanceof OAuthError) return error;
  if (error instanceof DomainError) {
    const mapped = new OAuthError(oauthCodeForStatus(error.status), error.detail, error.status);
    Object.assign(mapped.headers, error.headers);
    return mapped;
  }
  const style = request.routeOptions.config.oauthErrors ?? {};
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const first = fastifyError.validation[0];
    const context = fastifyError.validationContext;
    // Form and query values are strings; only a parameter sent twice arrives as a list (RFC 6749 §3.1).
    const repeated = first?.keyword === 'type' && (style.body === 'form' || context === 'querystring');
    const name = first?.instancePath.replace(/^\//, '');
    const detail = repeated
      ? `parameter '${name}' must be sent once`
      : first?.keyword === 'pattern'
        ? `parameter '${name}' must be printable ASCII`
        : describeValidationError(fastifyError.validation as never, context);
    return new OAuthError(style.invalidInput ?? 'invalid_request', detail, 400);
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new OAuthError(style.invalidInput ?? 'invalid_request', 'Request body is not valid JSON', 400);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new OAuthError(
        'invalid_request',
        `Unsupported content type '${request.headers['content-type'] ?? ''}': send ${style.body === 'form' ? FORM : 'application/json'}`,
        style.body === 'form' ? 400 : 415,
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new OAuthError('invalid_request', 'Request body is too large', 413);
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) return new OAuthError(oauthCodeForStatus(status), error.message, status);
  request.log.error({ err: error }, 'unhandled error');
  return new OAuthError('server_error', 'Internal server error', 500);
}

function wantsPage(request: FastifyRequest, style: OAuthErrorStyle): boolean {
  return style.pageForBrowsers === true && (request.headers.accept ?? '').includes('text/html');
}

/** The error handler of the OAuth routes' plugin. */
export function answerOAuthError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const oauthError = toOAuthError(error, request);
  // RFC 6749 §5.1: nothing the token endpoint says may be cached; the same holds for the others.
  reply.code(oauthError.status).headers(oauthError.headers).header('cache-control', 'no-store');
  // RFC 6749 §5.2: a client that authenticated through the Authorization header and failed gets
  // 401 with a challenge in the scheme it used.
  if (oauthError.error === 'invalid_client' && usesBasicScheme(request.headers.authorization)) {
    reply.header('www-authenticate', BASIC_CHALLENGE);
  }
  if (wantsPage(request, request.routeOptions.config.oauthErrors ?? {})) {
    return reply.type('text/html; charset=utf-8').send(renderErrorPage(oauthError.status, oauthError.detail));
  }
  return reply
    .type('application/json; charset=utf-8')
    .send({ error: oauthError.error, error_description: oauthError.detail, detail: oauthError.detail });
}
