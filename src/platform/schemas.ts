/** Schema pieces shared by every feature. */
import { Type } from 'typebox';

export const ErrorSchema = Type.Object({ detail: Type.String() }, { $id: undefined });

/** True for a UUID in its canonical text form (any version). */
export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

export const UuidSchema = Type.String({ format: 'uuid' });
export const TimestampSchema = Type.String({ format: 'date-time' });
export const NullableTimestampSchema = Type.Union([TimestampSchema, Type.Null()]);

/** The common error responses, to spread into a route's `response`. */
export const errorResponses = {
  400: ErrorSchema,
  401: ErrorSchema,
  403: ErrorSchema,
  404: ErrorSchema,
  429: ErrorSchema,
};

/** `limit`/`offset` query parameters with a page size of 1 to `max`. */
export function pageQuery(max = 200, defaultLimit = 50) {
  return {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: max, default: defaultLimit })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  };
}
