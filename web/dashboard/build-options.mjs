// How esbuild builds the dashboard: one script and one stylesheet, `dist/app.js` and
// `dist/app.css`, with fixed names (the service versions them by content hash when it links
// them). scripts/build-web.mjs builds with these options at install and before tests.
import { fileURLToPath } from 'node:url';

/** The dashboard's sources, for "is the build older than its sources?" checks. */
export const dashboardSourceDir = fileURLToPath(new URL('./src/', import.meta.url));
export const dashboardOutDir = fileURLToPath(new URL('./dist/', import.meta.url));

/** esbuild options for the dashboard bundle. */
export function dashboardBuildOptions({ minify = true } = {}) {
  return {
    entryPoints: { app: fileURLToPath(new URL('./src/main.tsx', import.meta.url)) },
    outdir: dashboardOutDir,
    entryNames: '[name]',
    bundle: true,
    format: 'iife',
    target: ['es2020'],
    minify,
    sourcemap: false,
    legalComments: 'none',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    charset: 'utf8',
    logLevel: 'warning',
  };
}
