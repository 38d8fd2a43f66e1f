import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { addSchemaFormats } from './validation.ts';
import { declaredRoutes, securityFor, type DeclaredRoute } from './openapi.ts';
import { sampleFor, type JsonSchema } from './openapi-examples.ts';
import { ASSET_PREFIX } from './docs-pages.ts';

interface Media {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}
interface Parameter {
  name: string;
  in: string;
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { description?: string; content?: Record<string, Media>; headers?: Record<string, { schema?: { type?: string } }> }>;
  security?: Array<Record<string, string[]>>;
}
interface Document {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
  tags?: Array<{ name: string }>;
}

const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Routes that are not part of the API: the documentation itself, and the CORS preflights browsers send. */
function isDocumentationOrPreflight(route: DeclaredRoute): boolean {
  return ['/openapi.json', '/docs', '/redoc', '/docs/', '/redoc/'].includes(route.url) || route.url.startsWith(ASSET_PREFIX) || route.method === 'OPTIONS' || isDashboardPage(route);
}

/** The dashboard web app: `/` (a redirect), its HTML shell at `/app` and under it, and its built files. */
function isDashboardPage(route: DeclaredRoute): boolean {
  return route.url === '/' || route.url === '/app' || route.url.startsWith('/app/');
}

/** `/a/:b` as the document writes it: `/a/{b}`. */
function documentPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

// Files and forms with a file are described by their schema (a file picker in the explorer), not by an example.
const FILE_MEDIA = /^(?:multipart\/|application\/octet-stream$|image\/|audio\/|\*\/\*$)/;
const isFile = (mediaType: string, media: Media) => FILE_MEDIA.test(mediaType) || media.schema?.format === 'binary';
const hasExample = (media: Media) => media.example !== undefined || Object.keys(media.examples ?? {}).length > 0;
const examplesOf = (media: Media | Parameter): unknown[] => [
  ...(media.example !== undefined ? [media.example] : []),
  ...Object.values(media.examples ?? {}).map((e) => e.value),
];

/** Everything a route's operation lacks, as readable lines. */
function problemsOf(route: DeclaredRoute, op: Operation): string[] {
  const problems: string[] = [];
  const schema = route.schema ?? {};
  const responses = op.responses ?? {};
  if (!op.operationId) problems.push('no operationId');
  if (!op.tags?.length) problems.push('no tags');
  if (!op.summary && !op.description) problems.push('no summary or description');

  const success = Object.entries(responses).filter(([code]) => /^[23]\d\d$/.test(code));
  if (success.length === 0) problems.push('no success response');
  const declared = (schema.response ?? {}) as Record<string, { type?: unknown }>;
  for (const [code, response] of success) {
    // Redirects, and bodies declared empty (`Type.Null()`), have no content to describe.
    if (!code.startsWith('2') || declared[code]?.type === 'null') continue;
    const media = Object.entries(response.content ?? {});
    if (media.length === 0) problems.push(`${code}: no content`);
    for (const [type, m] of media) if (!m.schema) problems.push(`${code} ${type}: no schema`);
  }

  if (route.config?.auth && !(responses['401'] && responses['403'])) problems.push('authenticated, without 401 and 403');
  const takesInput = ['params', 'querystring', 'body', 'headers', 'documentedBody'].some((part) => part in schema);
  if (takesInput && !responses['400']) problems.push('takes input, without 400');
  if (route.config?.rateLimit !== false && !responses['429']) problems.push('rate limited, without 429');
  for (const [code, response] of Object.entries(responses)) {
    if (!/^[45]/.test(code)) continue;
    const json = response.content?.['application/json']?.schema as { properties?: Record<string, JsonSchema>; required?: string[] } | undefined;
    if (json && !(json.properties?.detail?.type === 'string' && json.required?.includes('detail'))) problems.push(`${code}: an error body without {detail}`);
  }

  if (route.config?.auth) {
    try {
      assert.deepEqual(op.security, securityFor(route.config.auth));
    } catch {
      problems.push(`security ${JSON.stringify(op.security)} is not that of config.auth`);
    }
  }

  if (('body' in schema || 'documentedBody' in schema) && !op.requestBody) problems.push('takes a body, without requestBody');
  for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
    if (!isFile(type, media) && !hasExample(media)) problems.push(`request body ${type}: no example`);
  }
  const shown = success.flatMap(([, response]) => Object.entries(response.content ?? {})).filter(([type, media]) => !isFile(type, media));
  if (shown.length > 0 && !shown.some(([, media]) => hasExample(media))) problems.push('no response example');
  return problems;
}

describe('API description', () => {
  let t: TestApp;
  let doc: Document;
  before(async () => {
    t = await startTestApp();
    const res = await t.request('GET', '/openapi.json');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    doc = res.body;
  });
  after(async () => {
    await t.close();
  });

  it('serves a valid OpenAPI 3.1 document', async () => {
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    assert.equal(doc.info.title, 'Parley API');
    await SwaggerParser.validate(structuredClone(doc) as never);
  });

  it('documents every route the app serves, and only those', () => {
    const routes = declaredRoutes(t.app).filter((r) => r.method !== 'HEAD');
    assert.ok(routes.length > 50, `${routes.length} routes were collected`);
    const problems: string[] = [];
    const expected = new Set<string>();
    for (const route of routes) {
      const where = `${route.method} ${route.url}`;
      if (route.schema?.hide) {
        if (!isDocumentationOrPreflight(route)) problems.push(`${where}: hidden from the document`);
        continue;
      }
      const path = documentPath(route.url);
      expected.add(`${route.method.toLowerCase()} ${path}`);
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      if (!op) problems.push(`${where}: missing from the document`);
      else problems.push(...problemsOf(route, op).map((p) => `${where}: ${p}`));
    }
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item).filter((m) => OPERATION_METHODS.includes(m))) {
        if (!expected.has(`${method} ${path}`)) problems.push(`${method.toUpperCase()} ${path}: documented but not served`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('declares Retry-After on every 429, and the upload limit’s own words on the media 413', () => {
    const limited = Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => (op.responses?.['429'] ? [op.responses['429']] : [])));
    assert.ok(limited.length > 20);
    for (const response of limited) assert.equal(response.headers?.['Retry-After']?.schema?.type, 'integer');
    const upload = doc.paths['/api/widget/chat/media']?.post?.responses?.['413'];
    assert.match(JSON.stringify(upload), /PARLEY_MAX_UPLOAD_BYTES/);
  });

  it('gives every operation a unique operationId and lists every tag it uses', () => {
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    assert.equal(new Set(ids).size, ids.length);
    const tags = new Set((doc.tags ?? []).map((tag) => tag.name));
    for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) for (const tag of op.tags ?? []) assert.ok(tags.has(tag), `tag ${tag} is listed`);
  });

  it('has examples that validate against their schemas', async () => {
    const resolved = (await SwaggerParser.dereference(structuredClone(doc) as never)) as unknown as Document;
    const ajv = addSchemaFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addFormat('binary', true);
    const problems: string[] = [];
    let checked = 0;
    const check = (where: string, schema: JsonSchema | undefined, values: unknown[]) => {
      if (!schema) return;
      const validate = ajv.compile(schema);
      for (const value of values) {
        checked++;
        if (!validate(value)) problems.push(`${where}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value).slice(0, 200)}`);
      }
    };
    for (const [path, item] of Object.entries(resolved.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const at = `${method.toUpperCase()} ${path}`;
        for (const p of op.parameters ?? []) check(`${at} ${p.in} ${p.name}`, p.schema, examplesOf(p));
        for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) check(`${at} body ${type}`, media.schema, examplesOf(media));
        for (const [code, response] of Object.entries(op.responses ?? {})) {
          for (const [type, media] of Object.entries(response.content ?? {})) check(`${at} ${code} ${type}`, media.schema, examplesOf(media));
        }
      }
    }
    assert.ok(checked > 100, `${checked} examples checked`);
    assert.deepEqual(problems, []);
  });

  it('derives each operation security and scope from the route auth requirement', () => {
    const bot = doc.paths['/api/v1/bot']!.get!;
    assert.deepEqual(bot.security, [{ apiKey: ['read'] }, { oauthToken: ['read'] }]);
    assert.match(bot.description ?? '', /Scope: read/);
    assert.deepEqual(doc.paths['/api/keys']!.post!.security, [{ dashboardSession: [] }, { dashboardCookie: [] }]);
    assert.equal(doc.paths['/api/auth/signup']!.post!.security, undefined);
    for (const name of ['apiKey', 'oauthToken', 'dashboardSession', 'dashboardCookie', 'widgetBotId']) {
      assert.ok(doc.components.securitySchemes[name], `scheme ${name}`);
    }
    assert.equal(bot.responses!['200']!.description, 'OK');
  });

  it('documents streams, files, CSV and raw bodies under their own media types', () => {
    const content = (path: string, method: string, status: string) => Object.keys(doc.paths[path]?.[method]?.responses?.[status]?.content ?? {});
    assert.deepEqual(content('/api/widget/chat/stream', 'post', '200'), ['text/event-stream']);
    assert.deepEqual(content('/api/dashboard/bots/{bot_id}/leads.csv', 'get', '200'), ['text/csv']);
    assert.deepEqual(content('/api/widget/media/{file_id}/{file_name}', 'get', '200'), ['*/*']);
    assert.deepEqual(content('/api/widget/media/{file_id}/{file_name}', 'get', '404'), ['application/json']);
    const upload = doc.paths['/api/widget/chat/media']?.post?.requestBody?.content?.['multipart/form-data'];
    assert.equal((upload?.schema?.properties as Record<string, JsonSchema> | undefined)?.file?.format, 'binary', 'the upload form has a file');
    // The signed delivery is read raw, but documented as the JSON it is.
    const delivery = doc.paths['/api/catalog/{bot_id}/events']?.post?.requestBody?.content?.['application/json'];
    assert.equal(delivery?.schema?.type, 'object', 'the delivery body is documented as an object');
    assert.ok(Object.keys(delivery?.examples ?? {}).length >= 2, 'the delivery body has named examples');
  });

  it('leaves the documentation routes out of the document', () => {
    for (const path of ['/openapi.json', '/docs', '/redoc']) assert.equal(doc.paths[path], undefined, path);
    assert.ok(!Object.keys(doc.paths).some((path) => path.startsWith(ASSET_PREFIX)), 'no asset is documented');
  });
});

describe('Derived examples', () => {
  const check = (schema: JsonSchema) => {
    const ajv = addSchemaFormats(new Ajv2020({ strict: false }));
    const derived = sampleFor(schema);
    assert.ok(derived, `a sample for ${JSON.stringify(schema)}`);
    assert.ok(ajv.validate(schema, derived.value), `${JSON.stringify(derived.value)} for ${JSON.stringify(schema)}`);
    return derived.value;
  };

  it('respects types, formats, ranges, lengths and required fields', () => {
    const value = check({
      type: 'object',
      required: ['id', 'created_at', 'count', 'tags', 'zone'],
      properties: {
        id: { type: 'string' },
        created_at: { type: 'string', format: 'date-time' },
        count: { type: 'integer', minimum: 5, maximum: 9 },
        ratio: { type: 'number', exclusiveMaximum: 0 },
        tags: { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 2, uniqueItems: true },
        zone: { type: 'string', format: 'iana-timezone' },
        code: { type: 'string', minLength: 12 },
        owner: { anyOf: [{ type: 'null' }, { type: 'object', properties: { email: { type: 'string', format: 'email' } } }] },
        limit: { type: 'integer', default: 50 },
      },
    });
    assert.deepEqual(Object.keys(value as object).sort(), ['code', 'count', 'created_at', 'id', 'limit', 'owner', 'ratio', 'tags', 'zone']);
    assert.equal((value as { limit: number }).limit, 50);
  });

  it('prefers the examples a schema declares', () => {
    assert.deepEqual(check({ type: 'object', examples: [{ a: 1 }], properties: { a: { type: 'integer' } } }), { a: 1 });
  });

  it('gives up on what it cannot satisfy rather than guessing', () => {
    assert.equal(sampleFor({ type: 'object', required: ['color'], properties: { color: { type: 'string', pattern: '^#[0-9a-f]{6}$' } } }), undefined);
    assert.equal(sampleFor({ type: 'string', format: 'made-up' }), undefined);
    // An optional field it cannot fill is left out.
    assert.deepEqual(check({ type: 'object', properties: { color: { type: 'string', pattern: '^#[0-9a-f]{6}$' } } }), {});
  });
});
