/** Schema pieces shared by every feature. */
import { Type, type Static, type TSchema } from 'typebox';

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
    // Past JavaScript's safe integers a number is no longer exact, and the database refuses it.
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 })),
  };
}

/** Ids and times the documentation's examples share, so that the bot of one example is that of the next. */
export const EXAMPLE = {
  accountId: '5e7a1c9d-2b4f-4a6e-8d3c-9f1b2e4a6c8d',
  userId: '1c3e5a7b-9d2f-4b6a-8e1c-3a5b7d9f2e4c',
  botId: '3f0c8a52-9d1e-4b7a-8c2f-6e5d4a3b2c1d',
  keyId: '7b2e9c41-5a3d-4f8e-b1c6-0d9a8e7f6c5b',
  sourceId: '0195f2d1-4e8a-7b3c-9d2e-6f1a8b3c5d7e',
  sessionId: '0195f3a2-7b10-7c2d-8e4f-1a2b3c4d5e6f',
  messageId: '0195f3a2-7c41-7d3e-9b20-5a8e6f1c2d47',
  replyId: '0195f3a2-7d02-7a11-8c3e-1f2a3b4c5d6e',
  leadId: '0195f3a2-8a33-7e44-9f55-2b3c4d5e6f70',
  webhookId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  deliveryId: '0195f3a2-7d09-7b22-9c33-4d5e6f708192',
  itemId: '4b5c6d7e-8f9a-4b1c-9d2e-3f4a5b6c7d8e',
  time: '2026-03-02T09:30:00.000Z',
  later: '2026-03-02T09:30:02.412Z',
} as const;

/**
 * `schema` with examples for the API documentation: the first becomes the example of a body or
 * response (`@fastify/swagger` moves it to the media type). They are typed by the schema here and
 * validated against it by Ajv in `openapi.test.ts`. The schema itself is copied, not changed.
 */
export function withExamples<T extends TSchema>(schema: T, ...examples: [Static<T>, ...Static<T>[]]): T {
  return Object.assign(copySchema(schema), { examples });
}

/** An example with a name and a one-line summary, for a body that takes several shapes. */
export interface NamedExample<T> {
  summary: string;
  value: T;
}

/**
 * `schema` with named examples for the API documentation (OpenAPI `examples` of the media type,
 * shown as a choice in the explorer), typed and checked like `withExamples`.
 */
export function withNamedExamples<T extends TSchema>(schema: T, examples: Record<string, NamedExample<Static<T>>>): T {
  return Object.assign(copySchema(schema), { 'x-examples': examples });
}

// Every own property, TypeBox's non-enumerable kind included.
function copySchema<T extends TSchema>(schema: T): T {
  return Object.defineProperties({}, Object.getOwnPropertyDescriptors(schema)) as T;
}

/**
 * A response that is not JSON (an event stream, CSV, a file), documented under its media type.
 * Fastify sends such bodies as the handler writes them; the schema only documents them.
 */
export function mediaResponse<T extends TSchema>(mediaType: string, description: string, schema: T) {
  return { description, content: { [mediaType]: { schema } } };
}
