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
/** The body is larger than allowed (413). */
export class PayloadTooLargeError extends DomainError {
  override readonly status = 413;
}
/** The body or an uploaded file is of a type this endpoint does not take (415). */
export class UnsupportedMediaTypeError extends DomainError {
  override readonly status = 415;
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
/** Our own failure, with a detail that is safe to show (500); anything else becomes a generic 500. */
export class InternalError extends DomainError {
  override readonly status = 500;
}
