/**
 * Examples for the OpenAPI document. Routes declare realistic examples on their schemas
 * (`withExamples`); every body and response that has none gets one derived from its schema here:
 * the schema's own `examples`, `const`, `default` or `enum`, then a value of its format, then one
 * suggested by the field's name. A derived value respects the length, range and pattern
 * constraints, or is not produced at all (the OpenAPI test then asks for a declared example).
 */
/** A JSON Schema as found in the document. */
export type JsonSchema = { [keyword: string]: unknown };

interface MediaType {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, unknown>;
}

interface Operation {
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}

/** The parts of an OpenAPI 3.1 document the examples are added to. */
export interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown> | undefined>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const NONE = Symbol('no sample');
type Sample = unknown;

const SAMPLE_UUID = '0195f3a2-7c41-7d3e-9b20-5a8e6f1c2d47';
const SAMPLE_TIME = '2026-03-02T09:30:00.000Z';

/** A value for each format the service's schemas use; an unknown format gets no derived value. */
const FORMAT_SAMPLES: Record<string, string> = {
  uuid: SAMPLE_UUID,
  'date-time': SAMPLE_TIME,
  date: '2026-03-02',
  time: '09:30:00Z',
  email: 'ada@example.com',
  uri: 'https://example.com/',
  'uri-reference': '/api/v1/bot',
  url: 'https://example.com/',
  hostname: 'example.com',
  ipv4: '203.0.113.7',
  ipv6: '2001:db8::7',
  'iana-timezone': 'Europe/Paris',
  'not-blank': 'Hello',
};

/** A value suggested by a string field's name, when its schema says nothing more. */
function sampleForName(name: string): string | undefined {
  if (name === 'id' || name.endsWith('_id')) return SAMPLE_UUID;
  if (name.endsWith('_at')) return SAMPLE_TIME;
  if (name === 'email') return 'ada@example.com';
  if (name === 'url' || name.endsWith('_url')) return 'https://example.com/';
  if (name === 'date') return '2026-03-02';
  if (name === 'name' || name === 'title') return 'Example';
  if (name.endsWith('timezone')) return 'Europe/Paris';
  if (['detail', 'message', 'description', 'content', 'text', 'question'].includes(name)) return 'Example text';
  return undefined;
}

/** Short `detail` texts of the errors every route can answer, as the service words them. */
const ERROR_DETAILS: Record<string, string> = {
  '400': "field 'name' is required",
  '401': 'Missing credential: this endpoint needs an API key or an OAuth access token as "Authorization: Bearer <credential>"',
  '403': "This credential lacks the 'write' scope",
  '404': 'Not Found',
  '406': "This endpoint streams Server-Sent Events: send 'Accept: text/event-stream'",
  '409': 'The request conflicts with what is stored (the item exists already, or was revoked)',
  '413': 'Request body is too large',
  '415': "Unsupported content type 'text/plain'",
  '422': 'The page has no usable text',
  '429': 'Rate limit exceeded (60/min per key)',
  '500': 'Internal server error',
  '502': 'The model provider failed: upstream answered 503',
  '503': 'The service is shutting down; try again',
};

function resolveRef(schema: JsonSchema, document: OpenApiDocument): JsonSchema {
  const ref = schema.$ref;
  const prefix = '#/components/schemas/';
  if (typeof ref === 'string' && ref.startsWith(prefix)) return document.components?.schemas?.[ref.slice(prefix.length)] ?? {};
  return schema;
}

function fitsString(value: string, schema: JsonSchema): boolean {
  if (typeof schema.minLength === 'number' && [...value].length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && [...value].length > schema.maxLength) return false;
  if (typeof schema.pattern === 'string') {
    try {
      if (!new RegExp(schema.pattern, 'u').test(value)) return false;
    } catch {
      return false;
    }
  }
  return true;
}

function sampleString(schema: JsonSchema, name: string): Sample {
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  // A format nobody here knows: no value can be trusted to pass it.
  if (format && !(format in FORMAT_SAMPLES)) return NONE;
  const generic = 'string'.padEnd(typeof schema.minLength === 'number' ? schema.minLength : 0, 'x');
  const candidates = format ? [FORMAT_SAMPLES[format]!] : [sampleForName(name), generic];
  return candidates.find((c): c is string => c !== undefined && fitsString(c, schema)) ?? NONE;
}

function sampleNumber(schema: JsonSchema, integer: boolean): Sample {
  const num = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  const low = num('minimum') ?? (num('exclusiveMinimum') !== undefined ? num('exclusiveMinimum')! + 1 : undefined);
  const high = num('maximum') ?? (num('exclusiveMaximum') !== undefined ? num('exclusiveMaximum')! - 1 : undefined);
  let value = low ?? (high !== undefined ? Math.min(high, 1) : 1);
  if (integer) value = Math.ceil(value);
  return high !== undefined && value > high ? NONE : value;
}

function sampleArray(schema: JsonSchema, name: string, document: OpenApiDocument, depth: number): Sample {
  const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
  if (schema.maxItems === 0) return [];
  const items = typeof schema.items === 'object' && schema.items !== null ? (schema.items as JsonSchema) : {};
  const item = sample(items, name, document, depth + 1);
  if (item === NONE) return minItems > 0 ? NONE : [];
  if (minItems <= 1) return [item];
  // Several distinct items: only the values an enum lists are known to be distinct and valid.
  const choices = Array.isArray(resolveRef(items, document).enum) ? (resolveRef(items, document).enum as unknown[]) : [];
  return choices.length >= minItems ? choices.slice(0, minItems) : NONE;
}

function sampleObject(schema: JsonSchema, document: OpenApiDocument, depth: number): Sample {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const value: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    const field = sample(property, key, document, depth + 1);
    if (field === NONE) {
      if (required.has(key)) return NONE;
      continue;
    }
    value[key] = field;
  }
  return value;
}

/** A value valid against `schema`, or `NONE` when none can be derived with confidence. */
function sample(input: JsonSchema | boolean, name: string, document: OpenApiDocument, depth: number): Sample {
  if (typeof input === 'boolean') return input ? {} : NONE;
  if (depth > 12) return NONE;
  const schema = resolveRef(input, document);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('default' in schema) return schema.default;
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) {
    // The most informative variant first: null only when nothing else can be shown.
    const ordered = [...union.filter((v) => v.type !== 'null'), ...union.filter((v) => v.type === 'null')];
    for (const variant of ordered) {
      const value = sample(variant, name, document, depth + 1);
      if (value !== NONE) return value;
    }
    return NONE;
  }
  if (schema.allOf !== undefined || schema.not !== undefined) return NONE;
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type === undefined ? [] : [schema.type as string];
  const type = types.find((t) => t !== 'null') ?? types[0] ?? (schema.properties ? 'object' : undefined);
  switch (type) {
    case 'object':
      return sampleObject(schema, document, depth);
    case 'array':
      return sampleArray(schema, name, document, depth);
    case 'string':
      return sampleString(schema, name);
    case 'integer':
    case 'number':
      return sampleNumber(schema, type === 'integer');
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      // No type at all: any JSON value passes.
      return Object.keys(schema).every((k) => k === 'description' || k === 'title') ? {} : NONE;
  }
}

/** A value valid against `schema` (see the file comment), or undefined when none can be derived. */
export function sampleFor(schema: JsonSchema, document: OpenApiDocument = {}, name = ''): { value: unknown } | undefined {
  const value = sample(schema, name, document, 0);
  return value === NONE ? undefined : { value };
}

function hasExample(media: MediaType): boolean {
  return media.example !== undefined || (media.examples !== undefined && Object.keys(media.examples).length > 0);
}

/** True for the `{detail}` error body (perhaps with more optional fields). */
function isErrorBody(schema: JsonSchema): boolean {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  const required = Array.isArray(schema.required) ? schema.required : [];
  return properties?.detail?.type === 'string' && required.every((name) => name === 'detail');
}

// Files and multipart forms are described by their schema (a file picker in the explorer); a
// made-up example of their bytes would tell a reader nothing.
const NO_DERIVED_EXAMPLE = /^(?:multipart\/|application\/octet-stream$|image\/|audio\/|\*\/\*$)/;

function fillMedia(media: MediaType, mediaType: string, document: OpenApiDocument, status?: string): void {
  if (hasExample(media) || !media.schema || NO_DERIVED_EXAMPLE.test(mediaType) || media.schema.format === 'binary') return;
  const schema = resolveRef(media.schema, document);
  const detail = status !== undefined ? ERROR_DETAILS[status] : undefined;
  if (detail !== undefined && isErrorBody(schema)) {
    media.example = { detail };
    return;
  }
  const derived = sampleFor(schema, document);
  if (derived) media.example = derived.value;
}

/**
 * Gives every request body and response of the document an example where the route declared
 * none. Changes the document in place and returns it.
 */
export function addDerivedExamples<T extends OpenApiDocument>(document: T): T {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item ?? {}) as Operation[]) {
      if (typeof operation !== 'object' || operation === null) continue;
      for (const [mediaType, media] of Object.entries(operation.requestBody?.content ?? {})) fillMedia(media, mediaType, document);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        for (const [mediaType, media] of Object.entries(response.content ?? {})) fillMedia(media, mediaType, document, status);
      }
    }
  }
  return document;
}
