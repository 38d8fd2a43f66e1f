/**
 * The dashboard's built files (`web/dashboard/dist/`, written by `scripts/build-web.mjs` at
 * install): a fixed allow-list, each read when first asked for and again whenever the file on disk
 * changes (a rebuild while the service runs), versioned by the start of its SHA-256.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendStaticAsset, staticAsset, type StaticAsset } from '../../platform/static-assets.ts';


/** Where the build writes the dashboard. */
export const DIST_DIR = fileURLToPath(new URL('../../../web/dashboard/dist/', import.meta.url));

/** Every file served under `/app/assets/`: nothing else is, whatever the path asks for. */
export const ASSET_TYPES: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

export type Asset = StaticAsset;

/** The built files, each re-read when its size or modification time changes. */
export function createDashboardAssets(dir = DIST_DIR) {
  const loaded = new Map<string, { mtimeMs: number; size: number; asset: Promise<Asset> }>();

  return {
    /** The asset, or undefined when it is not built. */
    async get(name: string): Promise<Asset | undefined> {
      const type = ASSET_TYPES[name];
      if (!type) return undefined;
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info) return undefined;
      const cached = loaded.get(name);
      if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.asset;
      const asset = readFile(file).then((body) => staticAsset(type, body));
      loaded.set(name, { mtimeMs: info.mtimeMs, size: info.size, asset });
      asset.catch(() => loaded.delete(name));
      return asset;
    },
  };
}

export type DashboardAssets = ReturnType<typeof createDashboardAssets>;

/** Sends an asset (platform/static-assets.ts). */
export const sendAsset = sendStaticAsset;
