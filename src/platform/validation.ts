/**
 * Schema validation: bodies are checked strictly (a wrong type is a 400, never coerced), while
 * query strings, path params and headers are coerced from their string form.
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

/** Fastify validator compiler that picks the Ajv instance by the part of the request. */
export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : paramAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<any>>;
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
    default:
      return path ? `${where} '${path}' ${error.message ?? 'is invalid'}` : `request ${context ?? 'body'} ${error.message ?? 'is invalid'}`;
  }
}

/**
 * A body validator for data that does not arrive as a route's body (a signed delivery is read
 * raw, checked, then parsed): null when the value passes, else the 400 detail naming the field.
 */
export function compileBodyValidator(schema: object): (value: unknown) => string | null {
  const validate = bodyAjv.compile(schema);
  return (value) => (validate(value) ? null : describeValidationError(validate.errors ?? [], 'body'));
}
