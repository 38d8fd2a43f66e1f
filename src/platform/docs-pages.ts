/**
 * The documentation pages: Swagger UI at `/docs` (every operation, with "Try it out" on this
 * origin) and Redoc at `/redoc`, both reading `/openapi.json`. Their scripts, styles and images
 * come from this service, never a CDN: a fixed list of files from `swagger-ui-dist`, `redoc` and
 * `src/web/api-docs/` (the pages' own start-up scripts), served under `/docs/assets/`. The two
 * pages get a Content-Security-Policy that lets those scripts run and reaches no other origin.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { sendStaticAsset, staticAsset, type StaticAsset } from './static-assets.ts';
import { escapeHtml } from './html.ts';


/** Where the assets are served. */
export const ASSET_PREFIX = '/docs/assets/';

// Same-origin scripts, styles, images and fonts only, and calls to this origin (the explorer's
// "Try it out"); the tools' icons are data: images. Nothing may frame the pages or post a form.
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
];

/** The CSP of `/docs`: Swagger UI needs nothing more. */
export const SWAGGER_UI_POLICY = [...PAGE_POLICY, "style-src 'self'"].join('; ');
/**
 * The CSP of `/redoc`: Redoc writes its styles into `<style>` elements as it renders
 * (styled-components), hence 'unsafe-inline' for styles (never for scripts), and runs its search
 * index in a worker made from a blob.
 */
export const REDOC_POLICY = [...PAGE_POLICY, "style-src 'self' 'unsafe-inline'", 'worker-src blob:'].join('; ');

const resolveModule = createRequire(import.meta.url).resolve;
const packageFile = (name: string, file: string) => path.join(path.dirname(resolveModule(`${name}/package.json`)), file);
const ownFile = (file: string) => fileURLToPath(new URL(`../web/api-docs/${file}`, import.meta.url));

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

// Redoc's menu shows the Redocly logo from their CDN, which the page's CSP refuses (and reports);
// a transparent pixel takes its place, next to the unchanged "API docs by Redocly" link.
const REDOCLY_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const BLANK_IMAGE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

interface AssetSource {
  name: string;
  file: string;
  type: string;
  rewrite?: (text: string) => string;
}

/** Every file served under ASSET_PREFIX: nothing else is, whatever the path asks for. */
const ASSET_SOURCES: AssetSource[] = [
  { name: 'swagger-ui.css', file: packageFile('swagger-ui-dist', 'swagger-ui.css'), type: CSS },
  { name: 'swagger-ui-page.css', file: packageFile('swagger-ui-dist', 'index.css'), type: CSS },
  { name: 'swagger-ui-bundle.js', file: packageFile('swagger-ui-dist', 'swagger-ui-bundle.js'), type: JS },
  { name: 'favicon-32x32.png', file: packageFile('swagger-ui-dist', 'favicon-32x32.png'), type: 'image/png' },
  { name: 'redoc.standalone.js', file: packageFile('redoc', 'bundles/redoc.standalone.js'), type: JS, rewrite: (text) => text.replaceAll(REDOCLY_LOGO, BLANK_IMAGE) },
  { name: 'swagger-ui-init.js', file: ownFile('swagger-ui-init.js'), type: JS },
  { name: 'redoc-init.js', file: ownFile('redoc-init.js'), type: JS },
  { name: 'redoc-page.css', file: ownFile('redoc-page.css'), type: CSS },
];

type Asset = StaticAsset;

/** The files, read once on first use (the service may never serve its documentation). */
function createAssetStore() {
  const loaded = new Map<string, Promise<Asset>>();
  async function load(source: AssetSource): Promise<Asset> {
    let body = await readFile(source.file);
    if (source.rewrite) body = Buffer.from(source.rewrite(body.toString('utf8')), 'utf8');
    return staticAsset(source.type, body);
  }
  return {
    get(name: string): Promise<Asset> {
      let asset = loaded.get(name);
      if (!asset) {
        const source = ASSET_SOURCES.find((s) => s.name === name);
        if (!source) throw new Error(`not a documentation asset: ${name}`);
        asset = load(source);
        // A failed read is retried by the next request rather than remembered.
        asset.catch(() => loaded.delete(name));
        loaded.set(name, asset);
      }
      return asset;
    },
    /** The link to an asset, with its version so that browsers may keep it for good. */
    async url(name: string): Promise<string> {
      return `${ASSET_PREFIX}${name}?v=${(await this.get(name)).version}`;
    },
  };
}

type AssetStore = ReturnType<typeof createAssetStore>;



interface PageParts {
  title: string;
  styles: string[];
  scripts: string[];
  body: string;
}

async function renderPage(assets: AssetStore, parts: PageParts): Promise<string> {
  const link = async (name: string) => escapeHtml(await assets.url(name));
  const styles = await Promise.all(parts.styles.map(async (name) => `<link rel="stylesheet" href="${await link(name)}">`));
  const scripts = await Promise.all(parts.scripts.map(async (name) => `<script src="${await link(name)}" defer></script>`));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${parts.title}</title>
<link rel="icon" type="image/png" href="${await link('favicon-32x32.png')}">
${styles.join('\n')}
${scripts.join('\n')}
</head>
<body>
<noscript>This page needs JavaScript. The API description itself is <a href="/openapi.json">/openapi.json</a>.</noscript>
${parts.body}
</body>
</html>
`;
}

const PAGES = [
  {
    url: '/docs',
    policy: SWAGGER_UI_POLICY,
    parts: {
      title: 'Parley API explorer',
      styles: ['swagger-ui.css', 'swagger-ui-page.css'],
      scripts: ['swagger-ui-bundle.js', 'swagger-ui-init.js'],
      body: '<div id="swagger-ui"></div>',
    },
  },
  {
    url: '/redoc',
    policy: REDOC_POLICY,
    parts: {
      title: 'Parley API reference',
      styles: ['redoc-page.css'],
      scripts: ['redoc.standalone.js', 'redoc-init.js'],
      body: '<div id="redoc"></div>',
    },
  },
];

/** Registers `/docs`, `/redoc` and their assets; none of them is part of the API document. */
export function installDocsPages(app: FastifyInstance): void {
  const assets = createAssetStore();

  for (const page of PAGES) {
    let html: Promise<string> | undefined;
    app.get(page.url, {
      config: { rateLimit: false, contentSecurityPolicy: page.policy },
      schema: { hide: true },
      handler: async (_request, reply) => {
        // The assets do not change while the process runs: the page is rendered once.
        if (!html) {
          html = renderPage(assets, page.parts);
          html.catch(() => (html = undefined));
        }
        return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(await html);
      },
    });
    // "/docs/" is a common way to type it: the page, not a 404.
    app.get(`${page.url}/`, {
      config: { rateLimit: false },
      schema: { hide: true },
      handler: async (_request, reply) => reply.redirect(page.url, 301),
    });
  }

  // The assets keep `default-src 'none'`: a CSP governs the document that loads a script or a
  // stylesheet, not the file itself, and a file opened on its own should run nothing. Unlike the
  // pages, they keep the per-IP rate limit: they are the large answers.
  for (const source of ASSET_SOURCES) {
    app.get(ASSET_PREFIX + source.name, {
      schema: { hide: true },
      handler: async (request, reply) => sendStaticAsset(request, reply, await assets.get(source.name)),
    });
  }
}
