/**
 * Turns the service's OpenAPI document into the dashboard's typed API description
 * (`web/dashboard/src/api/schema.gen.ts`): for every operation the dashboard may call (those a
 * dashboard session is accepted on, and sign-up and login) its method, path, parameters, body and
 * success response as TypeScript types, plus a table of methods and paths the client reads at run
 * time. The dashboard's client takes operation ids only, so a renamed field or a removed endpoint
 * fails the dashboard's type check; `dashboard-app.test.ts` fails when this file is stale.
 */

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  description?: string;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  security?: Array<Record<string, string[]>>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** True for the operations the dashboard may call: those a session cookie is accepted on, and the public auth calls. */
function dashboardCallable(op: Operation): boolean {
  // The OAuth consent page is the service's own HTML form, not something the app calls.
  if ((op.tags ?? []).includes('oauth')) return false;
  if (op.security?.some((alternative) => 'dashboardCookie' in alternative)) return true;
  return !op.security && (op.tags ?? []).includes('auth');
}

function indent(text: string, by: string): string {
  return text.replace(/\n/g, `\n${by}`);
}

/** The TypeScript type of a JSON schema (the subset TypeBox writes: no references). */
export function typeOf(schema: Schema | undefined): string {
  if (!schema || Object.keys(schema).filter((k) => k !== 'description' && k !== 'format').length === 0) return 'unknown';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return [...new Set(alternatives.map((s) => wrap(typeOf(s))))].join(' | ');
  if (schema.allOf) return schema.allOf.map((s) => wrap(typeOf(s))).join(' & ');
  if (Array.isArray(schema.type)) return schema.type.map((type) => typeOf({ ...schema, type })).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${wrap(typeOf(schema.items))}[]`;
    case 'object':
      return objectType(schema);
    default:
      return 'unknown';
  }
}

function wrap(type: string): string {
  return /[|&]/.test(type) && !/^[{(]/.test(type) ? `(${type})` : type;
}

function objectType(schema: Schema): string {
  const properties = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  if (properties.length === 0) {
    return extra === false ? 'Record<string, never>' : `Record<string, ${typeof extra === 'object' ? typeOf(extra) : 'unknown'}>`;
  }
  const required = new Set(schema.required ?? []);
  const lines = properties.map(([name, property]) => {
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    const doc = property.description ? `/** ${property.description.replace(/\*\//g, '* /').replace(/\s+/g, ' ')} */\n` : '';
    return `${doc}${key}${required.has(name) ? '' : '?'}: ${typeOf(property)};`;
  });
  return `{\n  ${lines.map((line) => indent(line, '  ')).join('\n  ')}\n}`;
}

function parametersType(parameters: Parameter[], place: string): string {
  const own = parameters.filter((p) => p.in === place);
  if (own.length === 0) return 'never';
  return objectType({
    type: 'object',
    properties: Object.fromEntries(own.map((p) => [p.name, p.schema ?? {}])),
    required: own.filter((p) => p.required).map((p) => p.name),
  });
}

function bodyType(op: Operation): string {
  const content = op.requestBody?.content ?? {};
  if (content['application/json']) return typeOf(content['application/json'].schema);
  if (content['multipart/form-data']) return 'FormData';
  return 'never';
}

function responseType(op: Operation): string {
  const success = Object.entries(op.responses ?? {}).filter(([code]) => /^2\d\d$/.test(code));
  const types = success.map(([, response]) => {
    const content = response.content ?? {};
    if (content['application/json']) return typeOf(content['application/json'].schema);
    return Object.keys(content).length === 0 ? 'null' : 'string';
  });
  return types.length === 0 ? 'unknown' : [...new Set(types)].map(wrap).join(' | ');
}

/** The text of `schema.gen.ts` for `document`. */
export function dashboardApiTypes(document: OpenApiDocument): string {
  const entries: Array<{ id: string; method: string; path: string; text: string }> = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId || !dashboardCallable(op)) continue;
      const parameters = op.parameters ?? [];
      const fields = [
        `/** ${(op.summary ?? op.operationId).replace(/\*\//g, '* /')} */`,
        `path: ${parametersType(parameters, 'path')};`,
        `query: ${parametersType(parameters, 'query')};`,
        `body: ${bodyType(op)};`,
        `response: ${responseType(op)};`,
      ];
      const text = `  ${op.operationId}: {\n    ${fields.map((f) => indent(f, '    ')).join('\n    ')}\n  };`;
      entries.push({ id: op.operationId, method: method.toUpperCase(), path, text });
    }
  }
  entries.sort((a, b) => a.id.localeCompare(b.id));
  return [
    '// Generated from the service\'s OpenAPI document by `npm run generate:dashboard-api`',
    '// (scripts/generate-dashboard-api.ts). Do not edit: change the routes\' schemas and regenerate.',
    '/* eslint-disable */',
    '',
    '/** Every operation the dashboard may call, by operationId: parameters, body and success response. */',
    'export interface Operations {',
    ...entries.map((e) => e.text),
    '}',
    '',
    '/** Method and path template of each operation. */',
    'export const OPERATIONS: { readonly [K in keyof Operations]: readonly [method: string, path: string] } = {',
    ...entries.map((e) => `  ${e.id}: [${JSON.stringify(e.method)}, ${JSON.stringify(e.path)}],`),
    '};',
    '',
  ].join('\n');
}
