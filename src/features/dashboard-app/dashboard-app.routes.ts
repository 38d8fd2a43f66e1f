/**
 * The dashboard web app: `GET /` sends browsers to `/app`; `/app` and every path under it answer
 * the one HTML shell (the app routes in the browser with the History API); `/app/assets/…` the
 * built script and stylesheet. The shell's Content-Security-Policy lets only this origin's script,
 * styles and calls run, and lets the Customizer frame the widget's same-origin demo page; every
 * other response keeps `default-src 'none'`. None of these routes is part of the API document.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendStaticAsset } from '../../platform/static-assets.ts';
import { createDashboardAssets, type DashboardAssets } from './dashboard-assets.ts';
import { escapeHtml } from '../../platform/html.ts';

export const APP_PATH = '/app';
export const ASSET_PATH = '/app/assets/';

export const SHELL_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

// A speech bubble in the brand colour, as a data: image (the policy allows data: images).
const ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path fill="#2563eb" d="M6 4h20a4 4 0 0 1 4 4v12a4 4 0 0 1-4 4H14l-7 6v-6H6a4 4 0 0 1-4-4V8a4 4 0 0 1 4-4z"/></svg>',
)}`;


async function renderShell(assets: DashboardAssets): Promise<string | undefined> {
  const [script, style] = await Promise.all([assets.get('app.js'), assets.get('app.css')]);
  if (!script || !style) return undefined;
  const link = (name: string, version: string) => escapeHtml(`${ASSET_PATH}${name}?v=${version}`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>Parley</title>
<link rel="icon" href="${escapeHtml(ICON)}">
<link rel="stylesheet" href="${link('app.css', style.version)}">
<script src="${link('app.js', script.version)}" defer></script>
</head>
<body>
<div id="app"><p class="boot">Loading Parley…</p></div>
<noscript><p>The Parley dashboard needs JavaScript. The API is described at <a href="/docs">/docs</a>.</p></noscript>
</body>
</html>
`;
}

const NOT_BUILT = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Parley: dashboard not built</title></head>
<body>
<h1>The dashboard has not been built</h1>
<p><code>npm install</code> builds it (or run <code>npm run build:web</code>), then reload this page. The API works without it: see <a href="/docs">/docs</a>.</p>
</body>
</html>
`;

export function dashboardAppRoutes(options: { distDir?: string } = {}) {
  return async function (app: FastifyInstance) {
    const assets = createDashboardAssets(options.distDir);

    async function sendShell(_request: FastifyRequest, reply: FastifyReply) {
      const html = await renderShell(assets);
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
      return html ? reply.send(html) : reply.code(503).send(NOT_BUILT);
    }

    app.get('/', {
      schema: { hide: true },
      handler: async (_request, reply) => reply.redirect(APP_PATH, 302),
    });

    const shell = { config: { contentSecurityPolicy: SHELL_POLICY }, schema: { hide: true } };
    app.get(APP_PATH, { ...shell, handler: sendShell });
    app.get(`${APP_PATH}/*`, {
      ...shell,
      handler: async (request, reply) => {
        // A missing asset is a 404, not the app: a stale page asking for an old file should fail plainly.
        if (request.url.startsWith(ASSET_PATH)) return reply.code(404).send({ detail: 'Not Found' });
        return sendShell(request, reply);
      },
    });

    // The files keep `default-src 'none'`: the shell's policy governs what they do.
    app.get(`${ASSET_PATH}:name`, {
      schema: { hide: true },
      handler: async (request, reply) => {
        const asset = await assets.get((request.params as { name: string }).name);
        if (!asset) return reply.code(404).send({ detail: 'Not Found' });
        return sendStaticAsset(request, reply, asset);
      },
    });
  };
}
