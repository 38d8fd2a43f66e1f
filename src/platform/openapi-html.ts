/**
 * Renders an OpenAPI 3.1 document as one plain HTML page. The service's CSP (`default-src 'none'`)
 * blocks every script, stylesheet and image, so the page is semantic HTML only: a contents list
 * by tag, one `<details>` per operation, and tables for parameters, request and response fields.
 */
import { STATUS_CODES } from 'node:http';

/** A JSON Schema as found in the document; only the keywords the page shows are named. */
export interface JsonSchema {
  type?: string | string[];
  $ref?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  [keyword: string]: unknown;
}

interface Parameter { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }
interface MediaTypes { content?: Record<string, { schema?: JsonSchema }> }
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: MediaTypes & { required?: boolean };
  responses?: Record<string, MediaTypes & { description?: string }>;
  security?: Array<Record<string, string[]>>;
}
interface SecurityScheme { type: string; scheme?: string; bearerFormat?: string; in?: string; name?: string; description?: string }

/** The parts of an OpenAPI 3.1 document the page reads. */
export interface ApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: Array<{ url: string }>;
  components?: { securitySchemes?: Record<string, SecurityScheme>; schemas?: Record<string, JsonSchema> };
  paths?: Record<string, Record<string, Operation> | undefined>;
}

/** `explorer`: operations folded under their tags; `reference`: every operation open, one long page. */
export type HtmlLayout = 'explorer' | 'reference';

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'];
const MAX_DEPTH = 6;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for use in HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Escaped text where `code spans` become `<code>` and blank lines separate paragraphs. */
function prose(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`)
    .join('\n');
}

function anchor(prefix: string, name: string): string {
  return `${prefix}-${name.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
}

interface Entry { path: string; method: string; op: Operation; id: string }

function entriesByTag(doc: ApiDocument): Map<string, Entry[]> {
  const byTag = new Map<string, Entry[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      // Listed under its first tag only, so each operation (and its anchor) appears once.
      const tag = op.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), { path, method, op, id: anchor('op', op.operationId ?? `${method}-${path}`) }]);
    }
  }
  return byTag;
}

function resolve(schema: JsonSchema | undefined, doc: ApiDocument): JsonSchema {
  const prefix = '#/components/schemas/';
  if (schema?.$ref?.startsWith(prefix)) return doc.components?.schemas?.[schema.$ref.slice(prefix.length)] ?? {};
  return schema ?? {};
}

function variantsOf(schema: JsonSchema, doc: ApiDocument): JsonSchema[] {
  const union = schema.anyOf ?? schema.oneOf;
  return union ? union.map((s) => resolve(s, doc)) : [schema];
}

function typeOf(input: JsonSchema | undefined, doc: ApiDocument): string {
  const schema = resolve(input, doc);
  const variants = variantsOf(schema, doc);
  if (variants.length > 1) return [...new Set(variants.map((v) => typeOf(v, doc)))].join(' | ');
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (schema.type === 'array') return `array of ${typeOf(schema.items, doc)}`;
  if (schema.type === 'object' && !schema.properties && typeof schema.additionalProperties === 'object') {
    return `map of ${typeOf(schema.additionalProperties, doc)}`;
  }
  if (schema.type) return schema.type;
  const sample = schema.const ?? schema.enum?.[0];
  return sample === undefined ? 'any' : sample === null ? 'null' : typeof sample;
}

const SHOWN_KEYWORDS = ['format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'uniqueItems', 'default'];

/** The constraints of a schema as `keyword value` pairs, unions and array items included. */
function constraintsOf(input: JsonSchema | undefined, doc: ApiDocument): Array<[string, string]> {
  const schema = resolve(input, doc);
  const out: Array<[string, string]> = [];
  const allowed: unknown[] = [];
  for (const variant of new Set([schema, ...variantsOf(schema, doc)])) {
    for (const keyword of SHOWN_KEYWORDS) {
      const value = variant[keyword];
      if (value !== undefined) out.push([keyword, typeof value === 'string' ? value : JSON.stringify(value)]);
    }
    if (variant.const !== undefined) allowed.push(variant.const);
    allowed.push(...(variant.enum ?? []));
  }
  if (allowed.length > 0) out.push(['one of', allowed.map((v) => JSON.stringify(v)).join(', ')]);
  const items = schema.type === 'array' ? constraintsOf(schema.items, doc) : [];
  return [...out, ...items.map(([keyword, value]): [string, string] => [`items ${keyword}`, value])];
}

interface FieldRow { name: string; schema: JsonSchema; required: boolean }

/** The fields of an object schema, nested objects and arrays of objects flattened to `a.b` and `a[].b`. */
function fieldsOf(input: JsonSchema | undefined, doc: ApiDocument, prefix = '', depth = 0): FieldRow[] {
  const object = variantsOf(resolve(input, doc), doc).find((v) => v.properties);
  if (!object?.properties || depth > MAX_DEPTH) return [];
  return Object.entries(object.properties).flatMap(([key, property]) => {
    const name = prefix + key;
    const schema = resolve(property, doc);
    const items = variantsOf(schema, doc).find((v) => v.type === 'array')?.items;
    return [
      { name, schema, required: object.required?.includes(key) ?? false },
      ...fieldsOf(schema, doc, `${name}.`, depth + 1),
      ...(items ? fieldsOf(items, doc, `${name}[].`, depth + 1) : []),
    ];
  });
}

function fieldTable(rows: Array<FieldRow & { description?: string }>, doc: ApiDocument, heading: string): string {
  const body = rows.map((row) => {
    const constraints = constraintsOf(row.schema, doc).map(([k, v]) => `${escapeHtml(k)} <code>${escapeHtml(v)}</code>`);
    const description = row.description ?? row.schema.description;
    return `<tr><td><code>${escapeHtml(row.name)}</code></td><td>${escapeHtml(typeOf(row.schema, doc))}</td><td>${row.required ? 'yes' : 'no'}</td><td>${constraints.join('<br>')}</td><td>${description ? escapeHtml(description) : ''}</td></tr>`;
  });
  return `<table>\n<thead><tr><th scope="col">${heading}</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Constraints</th><th scope="col">Description</th></tr></thead>\n<tbody>\n${body.join('\n')}\n</tbody>\n</table>`;
}

/** A body: its fields as a table, or its type when it is not an object. */
function renderBody(media: MediaTypes | undefined, doc: ApiDocument): string {
  const [contentType, { schema } = {}] = Object.entries(media?.content ?? {})[0] ?? [];
  if (!contentType) return '<p>No body.</p>';
  const schemaRoot = resolve(schema, doc);
  const rows = schemaRoot.type === 'array' ? fieldsOf(schemaRoot.items, doc, '[].') : fieldsOf(schemaRoot, doc);
  const head = `<p><code>${escapeHtml(contentType)}</code>, ${escapeHtml(typeOf(schemaRoot, doc))}</p>`;
  return rows.length > 0 ? `${head}\n${fieldTable(rows, doc, 'Field')}` : head;
}

function renderSecurity(op: Operation, doc: ApiDocument): string {
  if (!op.security?.length) return '<p>None: this operation is public.</p>';
  const options = op.security.flatMap((requirement) =>
    Object.entries(requirement).map(([name, roles]) => {
      const scheme = doc.components?.securitySchemes?.[name];
      const shape = scheme?.bearerFormat ?? (scheme?.in && scheme.name ? `${scheme.in} ${scheme.name}` : undefined);
      const format = shape ? ` (<code>${escapeHtml(shape)}</code>)` : '';
      const scope = roles.length > 0 ? `, scope <code>${escapeHtml(roles.join(' '))}</code>` : '';
      return `<li><a href="#${anchor('scheme', name)}">${escapeHtml(name)}</a>${format}${scope}</li>`;
    }),
  );
  return `<p>Any one of:</p>\n<ul>\n${options.join('\n')}\n</ul>`;
}

function renderParameters(op: Operation, doc: ApiDocument): string {
  const sections: string[] = [];
  for (const [place, title] of [['path', 'Path parameters'], ['query', 'Query parameters'], ['header', 'Header parameters']] as const) {
    const params = (op.parameters ?? []).filter((p) => p.in === place);
    if (params.length === 0) continue;
    const rows = params.map((p) => ({ name: p.name, schema: resolve(p.schema, doc), required: p.required ?? false, description: p.description }));
    sections.push(`<h4>${title}</h4>\n${fieldTable(rows, doc, 'Name')}`);
  }
  return sections.join('\n');
}

/** Responses with the same body are listed together (the shared error responses, mostly). */
function renderResponses(op: Operation, doc: ApiDocument): string {
  const groups = new Map<string, { codes: string[]; media: MediaTypes }>();
  for (const [code, response] of Object.entries(op.responses ?? {})) {
    const key = JSON.stringify(response.content ?? null);
    const group = groups.get(key) ?? { codes: [], media: response };
    group.codes.push(code);
    groups.set(key, group);
  }
  const items = [...groups.values()].map(({ codes, media }) => {
    const label = codes.map((code) => `<strong>${escapeHtml(code)}</strong> ${escapeHtml(STATUS_CODES[code] ?? '')}`).join(', ');
    return `<dt>${label}</dt>\n<dd>${renderBody(media, doc)}</dd>`;
  });
  return `<dl>\n${items.join('\n')}\n</dl>`;
}

function renderOperation(entry: Entry, doc: ApiDocument, layout: HtmlLayout): string {
  const { op, method, path } = entry;
  const name = op.operationId ? ` — ${escapeHtml(op.operationId)}` : '';
  return [
    `<details id="${entry.id}"${layout === 'reference' ? ' open' : ''}>`,
    `<summary><strong>${method.toUpperCase()}</strong> <code>${escapeHtml(path)}</code>${name}</summary>`,
    op.summary ? `<p><strong>${escapeHtml(op.summary)}</strong></p>` : '',
    op.description ? prose(op.description) : '',
    `<h4>Authentication</h4>\n${renderSecurity(op, doc)}`,
    renderParameters(op, doc),
    op.requestBody ? `<h4>Request body${op.requestBody.required ? ' (required)' : ''}</h4>\n${renderBody(op.requestBody, doc)}` : '',
    `<h4>Responses</h4>\n${renderResponses(op, doc)}`,
    '</details>',
  ].filter(Boolean).join('\n');
}

function renderSchemes(doc: ApiDocument): string {
  const items = Object.entries(doc.components?.securitySchemes ?? {}).map(([name, scheme]) => {
    const how = scheme.type === 'http'
      ? `<p>HTTP ${escapeHtml(scheme.scheme ?? '')}</p>`
      : `<p>${escapeHtml(scheme.type)} in ${escapeHtml(scheme.in ?? '?')} <code>${escapeHtml(scheme.name ?? '')}</code></p>`;
    return `<dt id="${anchor('scheme', name)}"><code>${escapeHtml(name)}</code></dt>\n<dd>${how}${scheme.description ? prose(scheme.description) : ''}</dd>`;
  });
  return `<section id="authentication">\n<h2>Authentication</h2>\n<dl>\n${items.join('\n')}\n</dl>\n</section>`;
}

/** The whole page for `doc` in the given layout. */
export function renderApiHtml(doc: ApiDocument, options: { layout: HtmlLayout }): string {
  const byTag = entriesByTag(doc);
  const title = `${doc.info.title} ${options.layout === 'reference' ? 'reference' : 'explorer'}`;
  const contents = [...byTag].map(([tag, entries]) => {
    const links = entries.map((e) => `<li><a href="#${e.id}">${e.method.toUpperCase()} <code>${escapeHtml(e.path)}</code></a></li>`);
    return `<li><a href="#${anchor('tag', tag)}">${escapeHtml(tag)}</a>\n<ul>\n${links.join('\n')}\n</ul></li>`;
  });
  const sections = [...byTag].map(([tag, entries]) =>
    `<section id="${anchor('tag', tag)}">\n<h2>${escapeHtml(tag)}</h2>\n${entries.map((e) => renderOperation(e, doc, options.layout)).join('\n')}\n</section>`,
  );
  const servers = (doc.servers ?? []).map((s) => `<code>${escapeHtml(s.url)}</code>`).join(', ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body>
<header>
<h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1>
<p>OpenAPI ${escapeHtml(doc.openapi)}: <a href="/openapi.json">openapi.json</a> · <a href="/docs">explorer</a> · <a href="/redoc">reference</a>${servers ? ` · server ${servers}` : ''}</p>
${doc.info.description ? prose(doc.info.description) : ''}
</header>
<nav aria-label="Contents">
<h2>Contents</h2>
<ul>
<li><a href="#authentication">Authentication</a></li>
${contents.join('\n')}
</ul>
</nav>
<main>
${renderSchemes(doc)}
${sections.join('\n')}
</main>
</body>
</html>
`;
}
