/**
 * Domain errors. Services throw these; the error handler in `http-rules.ts` maps each to its
 * status and a `{detail}` body. Nothing below the routes knows about HTTP statuses.
 */
export class DomainError extends Error {
  readonly status: number = 500;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string> = {};
  constructor(readonly detail: string) {
    super(detail);
    this.name = new.target.name;
  }
}

/** The input breaks a rule (400). */
export class ValidationError extends DomainError {
  override readonly status = 400;
}
/** No usable credential (401). */
export class UnauthorizedError extends DomainError {
  override readonly status = 401;
}
/** A credential that is not allowed to do this (403). */
export class ForbiddenError extends DomainError {
  override readonly status = 403;
}
/** The thing does not exist, or belongs to someone else (404). */
export class NotFoundError extends DomainError {
  override readonly status = 404;
}
/** The request conflicts with stored state (409). */
export class ConflictError extends DomainError {
  override readonly status = 409;
}
/** A limit was reached (429). */
export class RateLimitedError extends DomainError {
  override readonly status = 429;
  constructor(detail: string, retryAfterSec = 60) {
    super(detail);
    this.headers['retry-after'] = String(retryAfterSec);
  }
}
/** Someone else's service failed us (502). */
export class UpstreamError extends DomainError {
  override readonly status = 502;
}
/** The content cannot be processed (422). */
export class UnprocessableError extends DomainError {
  override readonly status = 422;
}
