/**
 * Serving the service's own built files (the API documentation's, the dashboard's, the widget's):
 * gzip when the client takes it, an ETag from the content with 304 on a match, and a cache policy
 * that lets a link naming the file's version be kept for good. One place for these rules.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const gzipAsync = promisify(gzip);

export interface StaticAsset {
  type: string;
  body: Buffer;
  /** The start of the content's SHA-256: the ETag, and the `v` of links that may be cached for good. */
  version: string;
  /** Made on the first request that takes gzip. */
  gzipped?: Promise<Buffer>;
}

/** An asset of `body`, versioned by its content. */
export function staticAsset(type: string, body: Buffer): StaticAsset {
  return { type, body, version: createHash('sha256').update(body).digest('base64url').slice(0, 16) };
}

/** The body compressed once, on first use. */
export function gzippedBody(asset: StaticAsset): Promise<Buffer> {
  asset.gzipped ??= gzipAsync(asset.body, { level: 9 });
  return asset.gzipped;
}

/** True when Accept-Encoding takes gzip (or anything) with a weight above zero. */
export function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    return (coding === 'gzip' || coding === '*') && !params.some((param) => /^\s*q=0(?:\.0*)?\s*$/.test(param));
  });
}

/** True when If-None-Match names this ETag (weakly or not) or `*`. */
export function matchesEtag(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/**
 * Sends an asset: gzip when accepted (not for images, compressed already), ETag and 304, cached for
 * good when the link names its version (`?v=`), else `cacheControl` (revalidated each time by default).
 */
export async function sendStaticAsset(request: FastifyRequest, reply: FastifyReply, asset: StaticAsset, options: { cacheControl?: string } = {}) {
  const compress = !asset.type.startsWith('image/') && acceptsGzip(request);
  const etag = `"${asset.version}${compress ? '-gz' : ''}"`;
  const pinned = (request.query as { v?: unknown } | undefined)?.v === asset.version;
  reply
    .type(asset.type)
    .header('etag', etag)
    .header('vary', 'accept-encoding')
    .header('cache-control', pinned ? 'public, max-age=31536000, immutable' : (options.cacheControl ?? 'no-cache'));
  if (matchesEtag(request, etag)) return reply.code(304).send();
  if (!compress) return reply.send(asset.body);
  return reply.header('content-encoding', 'gzip').send(await gzippedBody(asset));
}

/**
 * A file the build writes (the widget's script, the dashboard's bundle), read when first asked
 * for and again once it changes on disk (a rebuild while the service runs); undefined while it
 * does not exist.
 */
export function builtFile(file: string, type: string, options: { precompress?: boolean } = {}): () => Promise<StaticAsset | undefined> {
  let cached: { mtimeMs: number; size: number; asset: Promise<StaticAsset> } | undefined;

  // One stat per request, so that the request after a rebuild already gets the new file.
  return async function current(): Promise<StaticAsset | undefined> {
    const info = await stat(file).catch(() => undefined);
    if (!info) return undefined;
    if (!cached || cached.mtimeMs !== info.mtimeMs || cached.size !== info.size) {
      const asset = readFile(file).then((body) => {
        const read = staticAsset(type, body);
        if (options.precompress) void gzippedBody(read).catch(() => {});
        return read;
      });
      const entry = { mtimeMs: info.mtimeMs, size: info.size, asset };
      cached = entry;
      asset.catch(() => {
        if (cached === entry) cached = undefined;
      });
    }
    return cached.asset;
  };
}
