#!/usr/bin/env node
// Builds the browser code with esbuild: the chat widget (web/widget/src/main.ts →
// web/widget/dist/widget.js, one minified IIFE for ES2019 browsers, served at /widget.js) and the
// dashboard (web/dashboard/build-options.mjs, when it exists). Run by `npm install` (the `prepare`
// script) and `npm run build:web`; with `--if-stale` a bundle is built only when one of its
// sources (or this script) is newer than its output, which is how scripts/test.mjs keeps the tests
// on the current code. A bundle that fails to build loses its old output (the service then says it
// is not built, rather than serving stale code), the others are still built, and the exit code is 1.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const THIS_SCRIPT = fileURLToPath(import.meta.url);

/** Each bundle: esbuild's options, the files it is made from, and the files it writes. */
async function bundles() {
  const list = [
    {
      name: 'widget',
      options: {
        entryPoints: [join(ROOT, 'web/widget/src/main.ts')],
        outfile: join(ROOT, 'web/widget/dist/widget.js'),
        bundle: true,
        minify: true,
        format: 'iife',
        target: 'es2019',
        platform: 'browser',
        jsx: 'automatic',
        jsxImportSource: 'preact',
        tsconfig: join(ROOT, 'web/widget/tsconfig.json'),
        legalComments: 'none',
        logLevel: 'warning',
      },
      inputs: [join(ROOT, 'web/widget/src'), join(ROOT, 'web/widget/tsconfig.json')],
      outputs: [join(ROOT, 'web/widget/dist/widget.js')],
    },
  ];
  const dashboard = join(ROOT, 'web/dashboard/build-options.mjs');
  if (existsSync(dashboard)) {
    const { dashboardBuildOptions, dashboardSourceDir, dashboardOutDir } = await import(pathToFileURL(dashboard).href);
    list.push({
      name: 'dashboard',
      options: dashboardBuildOptions(),
      // The Inbox renders messages with the widget's Markdown rules (one module for both apps).
      inputs: [dashboardSourceDir, dashboard, join(ROOT, 'web/widget/src/markdown.ts')],
      outputs: [join(dashboardOutDir, 'app.js')],
    });
  }
  return list;
}

function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

function isStale(bundle) {
  const built = bundle.outputs.map((file) => (existsSync(file) ? statSync(file).mtimeMs : -Infinity));
  return Math.max(...[...bundle.inputs, THIS_SCRIPT].map(newestChange)) > Math.min(...built);
}

const onlyIfStale = process.argv.includes('--if-stale');
let failed = 0;
for (const bundle of await bundles()) {
  if (onlyIfStale && !isStale(bundle)) continue;
  for (const file of bundle.outputs) mkdirSync(join(file, '..'), { recursive: true });
  try {
    await build(bundle.options);
  } catch {
    // esbuild has printed the errors.
    for (const file of bundle.outputs) rmSync(file, { force: true });
    console.error(`build-web: the ${bundle.name} bundle failed to build`);
    failed++;
    continue;
  }
  const sizes = bundle.outputs.map((file) => {
    const bytes = readFileSync(file);
    return `${file.slice(ROOT.length)} ${bytes.length} bytes (${gzipSync(bytes, { level: 9 }).length} gzipped)`;
  });
  console.log(`built ${bundle.name}: ${sizes.join(', ')}`);
}
process.exitCode = failed > 0 ? 1 : 0;
