/**
 * The dashboard's built files (`web/dashboard/dist/`, written by `scripts/build-web.mjs` at
 * install): a fixed allow-list, each read when first asked for and again whenever the file on disk
 * changes (a rebuild while the service runs), versioned by the start of its SHA-256.
 */
import { readFile, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const gzipAsync = promisify(gzip);

/** Where the build writes the dashboard. */
export const DIST_DIR = fileURLToPath(new URL('../../../web/dashboard/dist/', import.meta.url));

/** Every file served under `/app/assets/`: nothing else is, whatever the path asks for. */
export const ASSET_TYPES: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

export interface Asset {
  type: string;
  body: Buffer;
  /** The start of the content's SHA-256: the ETag, and the `v` of links that may be cached for good. */
  version: string;
  gzipped?: Promise<Buffer>;
}

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
      const asset = readFile(file).then((body) => ({ type, body, version: createHash('sha256').update(body).digest('base64url').slice(0, 16) }));
      loaded.set(name, { mtimeMs: info.mtimeMs, size: info.size, asset });
      asset.catch(() => loaded.delete(name));
      return asset;
    },
  };
}

export type DashboardAssets = ReturnType<typeof createDashboardAssets>;

function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    return (coding === 'gzip' || coding === '*') && !params.some((param) => /^\s*q=0(?:\.0*)?\s*$/.test(param));
  });
}

/** Sends an asset: gzip when accepted, ETag and 304, cached for good when the link names its version. */
export async function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset) {
  const compress = acceptsGzip(request);
  const etag = `"${asset.version}${compress ? '-gz' : ''}"`;
  const pinned = (request.query as { v?: unknown }).v === asset.version;
  reply
    .type(asset.type)
    .header('etag', etag)
    .header('vary', 'accept-encoding')
    .header('cache-control', pinned ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  if (!compress) return reply.send(asset.body);
  asset.gzipped ??= gzipAsync(asset.body, { level: 9 });
  return reply.header('content-encoding', 'gzip').send(await asset.gzipped);
}
