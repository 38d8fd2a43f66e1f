/**
 * Schema validation: bodies are checked strictly (a wrong type or a number that is not finite is a
 * 400, never coerced), while query strings, path params and headers are coerced from their string form.
 */
import { Ajv, type ErrorObject } from 'ajv';
import type AjvCoreModule from 'ajv/dist/core.js';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/** What every Ajv class (draft-07, 2019, 2020) extends. */
type AjvCore = AjvCoreModule.default;

const addFormats = addFormatsModule as unknown as (ajv: AjvCore) => AjvCore;

const knownTimeZones = new Map<string, boolean>();

/** True for a time zone name the runtime knows (IANA names and their aliases, e.g. `Europe/Paris`, `UTC`). */
export function isTimeZone(name: string): boolean {
  let known = knownTimeZones.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: name });
      known = /^[A-Za-z]/.test(name);
    } catch {
      known = false;
    }
    if (knownTimeZones.size < 10_000) knownTimeZones.set(name, known);
  }
  return known;
}

const FORMAT_MESSAGES: Record<string, string> = {
  'iana-timezone': 'must be an IANA time zone name, e.g. Europe/Paris',
  'not-blank': 'must not be blank',
};

/** Adds the formats the service's schemas use (ajv-formats' and its own) to an Ajv instance of any draft. */
export function addSchemaFormats<T extends AjvCore>(ajv: T): T {
  addFormats(ajv);
  ajv.addFormat('iana-timezone', { type: 'string', validate: isTimeZone });
  ajv.addFormat('not-blank', { type: 'string', validate: (value: string) => /\S/.test(value) });
  return ajv;
}

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  return addSchemaFormats(new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false }));
}

const bodyAjv = makeAjv(false);
const paramAjv = makeAjv('array');

/**
 * The JSON pointer to the first number in `value` that is not finite, or null. JSON.parse reads
 * 1e400 as Infinity and JSON Schema's `number` takes it, but it cannot be stored or sent back.
 */
function nonFiniteNumberAt(value: unknown): string | null {
  // Iterative: a body's depth is capped by the JSON parser, but this walker needs no stack either way.
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, path] = next;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return path;
    } else if (node !== null && typeof node === 'object' && !ArrayBuffer.isView(node)) {
      // Pushed last to first, so the first one in the body is reported.
      for (const [key, child] of Object.entries(node).reverse()) pending.push([child, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
    }
  }
  return null;
}

/**
 * A body validator: the schema, then no non-finite number anywhere in the body (one rule for every
 * route, `Type.Unknown()` metadata included). Called as Fastify calls an Ajv function.
 */
function compileBody(schema: object) {
  const validate = bodyAjv.compile(schema);
  const firstRequired = (schema as { required?: string[] }).required?.[0];
  const uuids = uuidProperties(schema);
  const check = (data: unknown, context?: Parameters<typeof validate>[1]): boolean => {
    lowerCaseUuids(data, uuids);
    // No body (Fastify passes null), or JSON null, where an object with required fields is expected:
    // the first of them is missing.
    if ((data === undefined || data === null) && firstRequired !== undefined) {
      check.errors = [{ keyword: 'required', instancePath: '', schemaPath: '#/required', params: { missingProperty: firstRequired }, message: `must have required property '${firstRequired}'` }];
      return false;
    }
    if (!validate(data, context)) {
      check.errors = validate.errors ?? null;
      return false;
    }
    const at = nonFiniteNumberAt(data);
    check.errors = at === null ? null : [{ keyword: 'finite', instancePath: at, schemaPath: '#', params: {}, message: 'must be a finite number' }];
    return at === null;
  };
  check.errors = null as ErrorObject[] | null;
  // Fastify passes the parent request only to functions that look like Ajv's (for root defaults).
  check.schemaEnv = validate.schemaEnv;
  return check;
}

// Query strings and path params arrive as text, and Ajv's coercion reads "0x10", "1e2", " 10" and
// "10.0" as numbers: an integer there is written in decimal digits, or it is a 400 like "abc".
const INTEGER_TEXT = /^-?\d+$/;

/** The names of an object schema's integer properties. */
function integerProperties(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property?.type === 'integer')
    .map(([name]) => name);
}

/** The names of an object schema's UUID properties. */
function uuidProperties(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { format?: unknown }> } | undefined)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property?.format === 'uuid')
    .map(([name]) => name);
}

/** UUIDs are case-insensitive (RFC 9562) and stored in lower case: an upper-case one names the same thing. */
function lowerCaseUuids(data: unknown, names: readonly string[]): void {
  if (data === null || typeof data !== 'object') return;
  const record = data as Record<string, unknown>;
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'string') record[name] = value.toLowerCase();
  }
}

/** Fastify validator compiler that picks the Ajv instance by the part of the request. */
export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) => {
  if (httpPart === 'body') return compileBody(schema as object) as unknown as ReturnType<FastifySchemaCompiler<any>>;
  const validate = paramAjv.compile(schema as object);
  const integers = integerProperties(schema);
  const uuids = uuidProperties(schema);
  if (integers.length === 0 && uuids.length === 0) return validate as ReturnType<FastifySchemaCompiler<any>>;
  const strict = (data: Record<string, unknown> | null): boolean => {
    lowerCaseUuids(data, uuids);
    for (const name of integers) {
      const value = data?.[name];
      if (typeof value === 'string' && !INTEGER_TEXT.test(value)) {
        strict.errors = [{ keyword: 'type', instancePath: `/${name}`, schemaPath: `#/properties/${name}/type`, params: { type: 'integer' }, message: 'must be integer' }];
        return false;
      }
    }
    const valid = validate(data);
    strict.errors = validate.errors ?? null;
    return valid;
  };
  strict.errors = null as ErrorObject[] | null;
  return strict as unknown as ReturnType<FastifySchemaCompiler<any>>;
};

/** A readable message that names the offending field, from Ajv's first error. */
export function describeValidationError(errors: ErrorObject[], context: string | undefined): string {
  const error = errors[0];
  if (!error) return 'Invalid request';
  const where = context === 'querystring' ? 'query parameter' : context === 'params' ? 'path parameter' : 'field';
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  switch (error.keyword) {
    case 'required': {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      const name = path ? `${path}.${missing}` : missing;
      return `${where} '${name}' is required`;
    }
    case 'additionalProperties': {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      return `${where} '${path ? `${path}.` : ''}${extra}' is not allowed`;
    }
    case 'format': {
      const message = FORMAT_MESSAGES[(error.params as { format: string }).format];
      if (message && path) return `${where} '${path}' ${message}`;
      return path ? `${where} '${path}' ${error.message ?? 'is invalid'}` : `request ${context ?? 'body'} ${error.message ?? 'is invalid'}`;
    }
    case 'maxLength':
    case 'minLength': {
      // Ajv's "must NOT have more than 200 characters", in the words the service's own checks use.
      const limit = (error.params as { limit: number }).limit;
      if (path) return `${where} '${path}' must be at ${error.keyword === 'maxLength' ? 'most' : 'least'} ${limit} character${limit === 1 ? '' : 's'}`;
      return `request ${context ?? 'body'} ${error.message ?? 'is invalid'}`;
    }
    default:
      return path ? `${where} '${path}' ${error.message ?? 'is invalid'}` : `request ${context ?? 'body'} ${error.message ?? 'is invalid'}`;
  }
}

/**
 * A body validator for data that does not arrive as a route's body (a signed delivery is read
 * raw, checked, then parsed): null when the value passes, else the 400 detail naming the field.
 */
export function compileBodyValidator(schema: object): (value: unknown) => string | null {
  const validate = compileBody(schema);
  return (value) => (validate(value) ? null : describeValidationError(validate.errors ?? [], 'body'));
}
