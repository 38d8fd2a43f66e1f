/**
 * OAuth errors: a domain error that carries an RFC 6749 §5.2 error code beside its detail. The OAuth
 * routes' error handler (`oauth-error-handler.ts`) answers it as `{error, error_description, detail}`;
 * anywhere else it still answers `{detail}` like every other domain error.
 */
import { DomainError } from '../../platform/errors.ts';

/** Codes of RFC 6749 §4.1.2.1 and §5.2, RFC 7009 §2.2.1 and RFC 7591 §3.2.2. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata';

// RFC 6749 §5.2: 400 for everything but a failed client authentication, which may be 401.
const STATUS: Partial<Record<OAuthErrorCode, number>> = {
  invalid_client: 401,
  access_denied: 403,
  server_error: 500,
  temporarily_unavailable: 503,
};

/** An error with its OAuth code; the status follows from the code unless given. */
export class OAuthError extends DomainError {
  override readonly status: number;
  constructor(
    readonly error: OAuthErrorCode,
    detail: string,
    status?: number,
  ) {
    super(detail);
    this.status = status ?? STATUS[error] ?? 400;
  }
}

/** The OAuth code for a plain domain error of the given status, so that every OAuth answer has one. */
export function oauthCodeForStatus(status: number): OAuthErrorCode {
  if (status === 401 || status === 403) return 'access_denied';
  if (status === 429 || status === 503) return 'temporarily_unavailable';
  if (status >= 500) return 'server_error';
  return 'invalid_request';
}
