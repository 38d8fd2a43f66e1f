/**
 * The widget's browser side as the service serves it: `GET /widget.js`, the embed script built by
 * `scripts/build-web.mjs` into `web/widget/dist/` (this server imports none of its code), and
 * `GET /demo/{bot_id}`, a plain page that embeds a bot's widget with the one-line snippet and shows
 * that snippet.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorSchema, EXAMPLE, mediaResponse } from '../../platform/schemas.ts';
import { builtFile, sendStaticAsset } from '../../platform/static-assets.ts';
import type { BotService } from '../bots/bots.service.ts';
import { isOriginAllowed } from './widget-access.ts';
import { escapeHtml } from '../../platform/html.ts';


/** Where the build writes the widget. */
export const WIDGET_DIST_DIR = fileURLToPath(new URL('../../../web/widget/dist/', import.meta.url));

/** How long browsers and proxies may keep the script before asking again (then an ETag answers 304). */
export const WIDGET_MAX_AGE_SEC = 300;

export const NOT_BUILT_DETAIL = 'The widget script has not been built: run `npm run build:web` (npm install does it)';

/**
 * The demo page's policy: scripts, calls and images from this origin only (upload previews are
 * blob: URLs), the page's one inline style by its hash. The widget needs no style-src of its own:
 * it styles its shadow root with a constructed style sheet and CSSOM, which CSP does not govern.
 * The dashboard (same origin) may frame the page as a preview; nothing else may.
 */
export function demoPagePolicy(styleHash: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data: blob:",
    `style-src 'self' 'sha256-${styleHash}'`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

const DEMO_CSS = `
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2937; background: #f8fafc; }
main { max-width: 720px; margin: 0 auto; padding: 48px 24px 160px; }
/* Wide enough for both: the text beside the open widget's panel (380 px, 20 px from the edge), not under it. */
@media (min-width: 820px) { body { padding-right: 400px; } }
h1 { font-size: 28px; margin: 0 0 8px; }
h2 { font-size: 18px; margin: 32px 0 8px; }
pre { background: #0f172a; color: #e2e8f0; padding: 14px 16px; border-radius: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
code { font: 14px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.note { background: #fef3c7; color: #713f12; padding: 10px 14px; border-radius: 8px; }
@media (prefers-color-scheme: dark) { body { background: #0b1120; color: #e5e7eb; } .note { background: #422006; color: #fde68a; } }
`;
const DEMO_CSS_HASH = createHash('sha256').update(DEMO_CSS).digest('base64');
export const DEMO_PAGE_POLICY = demoPagePolicy(DEMO_CSS_HASH);


/** The line a site adds to embed the bot's widget. */
export const embedSnippet = (publicUrl: string, botId: string) => `<script src="${publicUrl}/widget.js" data-bot-id="${botId}" async></script>`;

function renderDemoPage(bot: { id: string; name: string }, snippet: string, originAllowed: boolean): string {
  const name = escapeHtml(bot.name);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${name}: chat widget demo</title>
<style>${DEMO_CSS}</style>
</head>
<body>
<main>
<h1>${name}</h1>
<p>This page shows the bot's chat widget as visitors of a site see it: it has opened at the bottom right.</p>
${originAllowed ? '' : `<p class="note">This bot's <code>allowed_domains</code> does not include this service's own address, so the widget refuses to appear here. Add the host to the list (or empty it) to try it on this page.</p>\n`}<h2>Add it to a site</h2>
<p>Paste this line into each page that should show the chat, for example before <code>&lt;/body&gt;</code>:</p>
<pre><code>${escapeHtml(snippet)}</code></pre>
<p>Add <code>data-theme="dark"</code> or <code>data-theme="light"</code> to fix the theme (it follows the visitor's system otherwise), or <code>data-open</code> to open the chat at once, as this page does. The page can drive the widget through <code>window.Parley</code>: <code>open()</code>, <code>close()</code>, <code>send(text)</code>, <code>setMetadata({…})</code> and <code>on(event, handler)</code>.</p>
</main>
<script src="/widget.js" data-bot-id="${escapeHtml(bot.id)}" data-open async></script>
</body>
</html>
`;
}



export interface WidgetAssetRouteDeps {
  bots: Pick<BotService, 'get'>;
  /** PUBLIC_URL, for the snippet the demo page shows. */
  publicUrl: string;
  /** Where the built widget is (tests point elsewhere). */
  distDir?: string;
}

export function widgetAssetRoutes(deps: WidgetAssetRouteDeps) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    // Nearly every request takes gzip: compress once, when the file is read.
    const script = builtFile(`${deps.distDir ?? WIDGET_DIST_DIR}/widget.js`, 'text/javascript; charset=utf-8', { precompress: true });
    const tags = ['widget'];

    // Without the TypeBox provider: the script is sent as bytes, not as the string its schema documents.
    fastify.get('/widget.js', {
      // Every page view of every site with the widget asks for it; it is a buffer in memory.
      config: { rateLimit: false },
      schema: {
        operationId: 'widgetScript',
        tags,
        summary: 'The embeddable chat widget',
        description: `The script of the one-line embed \`<script src="{PUBLIC_URL}/widget.js" data-bot-id="…" async></script>\`. Cacheable for ${WIDGET_MAX_AGE_SEC} s, then revalidated by ETag (304); gzip when accepted; \`Access-Control-Allow-Origin: *\`. 503 when the browser code has not been built.`,
        response: {
          200: mediaResponse('text/javascript', 'The widget script (minified)', Type.String({ examples: ['"use strict";(()=>{ … })();'] })),
          304: Type.Null({ description: 'Not modified: the ETag sent in If-None-Match is current' }),
          503: ErrorSchema,
        },
      },
      handler: async (request, reply) => {
        const built = await script();
        reply.header('access-control-allow-origin', '*').header('cross-origin-resource-policy', 'cross-origin');
        if (!built) return reply.code(503).header('cache-control', 'no-store').send({ detail: NOT_BUILT_DETAIL });
        return sendStaticAsset(request, reply, built, { cacheControl: `public, max-age=${WIDGET_MAX_AGE_SEC}` });
      },
    });

    app.get('/demo/:bot_id', {
      config: { contentSecurityPolicy: DEMO_PAGE_POLICY },
      schema: {
        operationId: 'widgetDemoPage',
        tags,
        summary: "A page that shows a bot's widget",
        description:
          "A plain HTML page that embeds the bot's widget with the one-line snippet (opened at once), and shows the snippet with `PUBLIC_URL`. Public, like the bot id. The widget appears only when the bot's `allowed_domains` allows this service's own host (or is empty).",
        params: Type.Object({ bot_id: Type.String({ format: 'uuid', examples: [EXAMPLE.botId] }) }),
        response: {
          200: mediaResponse('text/html', 'The demo page', Type.String({ examples: ['<!doctype html><html lang="en">…<script src="/widget.js" data-bot-id="…" data-open async></script>…</html>'] })),
          400: ErrorSchema,
          404: ErrorSchema,
          429: ErrorSchema,
        },
      },
      handler: async (request, reply) => {
        const bot = await deps.bots.get(request.params.bot_id.toLowerCase());
        const origin = `${request.protocol}://${request.host}`;
        const html = renderDemoPage(bot, embedSnippet(deps.publicUrl, bot.id), isOriginAllowed(origin, bot.allowed_domains));
        return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('x-frame-options', 'SAMEORIGIN').send(html);
      },
    });
  };
}
