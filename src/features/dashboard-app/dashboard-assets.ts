/**
 * The dashboard's built files (`web/dashboard/dist/`, written by `scripts/build-web.mjs` at
 * install): a fixed allow-list, each read when first asked for and again once the file on disk
 * changes (a rebuild while the service runs), versioned by the start of its SHA-256.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtFile, type StaticAsset } from '../../platform/static-assets.ts';

/** Where the build writes the dashboard. */
export const DIST_DIR = fileURLToPath(new URL('../../../web/dashboard/dist/', import.meta.url));

/** Every file served under `/app/assets/`: nothing else is, whatever the path asks for. */
export const ASSET_TYPES: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

export type Asset = StaticAsset;

/** The built files, each re-read once it changes on disk. */
export function createDashboardAssets(dir = DIST_DIR) {
  const files = new Map(Object.entries(ASSET_TYPES).map(([name, type]) => [name, builtFile(path.join(dir, name), type)]));
  return {
    /** The asset, or undefined when it is not built (or not one of ASSET_TYPES). */
    get: (name: string): Promise<Asset | undefined> => files.get(name)?.() ?? Promise.resolve(undefined),
  };
}

export type DashboardAssets = ReturnType<typeof createDashboardAssets>;
