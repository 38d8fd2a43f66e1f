/**
 * Whether a URL may be requested: http(s) only, no credentials, and (unless the private network
 * is allowed) every address of its host public. The same guard answers a check without
 * connecting (webhook registration) and serves as the DNS lookup of the guarded fetch's sockets.
 */
import dns from 'node:dns';
import net from 'node:net';
import { blockedRangeOf, isPublicAddress } from './address-policy.ts';

/** One address of a host name, as `dns.lookup` reports it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (the default is `dns.lookup` with `all: true`). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Which addresses outbound requests may reach. */
export interface OutboundPolicy {
  /** `PARLEY_ALLOW_PRIVATE_NETWORK`: skip the address check (and only that). */
  allowPrivateNetwork: boolean;
  resolve?: Resolver;
  /** Which addresses may be reached when the private network is off limits (tests narrow or widen it). */
  isAllowedAddress?: (address: string) => boolean;
}

/** Why a URL cannot be requested: it is malformed or not http(s), or it leads to a refused address. */
export interface OutboundRefusal {
  ok: false;
  reason: 'invalid_url' | 'blocked_address';
  detail: string;
}

/** Raised by the guard's lookup when a resolved address is refused. */
export class BlockedAddressError extends Error {
  readonly code = 'PARLEY_BLOCKED_ADDRESS';
}

const defaultResolve: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** The address checks of one policy: for IP literals, for host names, and as a socket lookup. */
export interface AddressGuard {
  /** Null when the address may be reached, else the refused range's name. */
  refusal(address: string): string | null;
  /** Every address of a host name, or a `BlockedAddressError` when any of them is refused. */
  resolveChecked(hostname: string): Promise<ResolvedAddress[]>;
  /** A `net` lookup that connects only to addresses `resolveChecked` let through. */
  lookup: net.LookupFunction;
}

/** Builds the address checks for a policy. */
export function createAddressGuard(policy: OutboundPolicy): AddressGuard {
  const { allowPrivateNetwork, resolve = defaultResolve, isAllowedAddress = isPublicAddress } = policy;

  const refusal = (address: string): string | null => {
    if (allowPrivateNetwork || isAllowedAddress(address)) return null;
    return blockedRangeOf(address) ?? 'not allowed';
  };

  const resolveChecked = async (hostname: string): Promise<ResolvedAddress[]> => {
    const found = await resolve(hostname);
    for (const { address } of found) {
      const why = refusal(address);
      // One refused address is enough: the socket may pick any of them.
      if (why !== null) throw new BlockedAddressError(`${hostname} resolves to ${address} (${why})`);
    }
    if (found.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
    return found;
  };

  // The socket connects to what this lookup returns, so the addresses checked are the ones used:
  // there is no second resolution for a rebinding DNS server to answer differently.
  const lookup: net.LookupFunction = (hostname, options, callback) => {
    resolveChecked(hostname).then(
      (found) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const addresses = found.filter((a) => family === 0 || a.family === family);
        if (addresses.length === 0) callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '');
        else if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };

  return { refusal, resolveChecked, lookup };
}

/** The URL to request, or why it cannot be (not a URL, not http(s), credentials in it). */
export function parseOutboundUrl(raw: string): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `not a URL: ${String(raw).slice(0, 200)}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `only http and https URLs, not ${url.protocol}`;
  if (url.username || url.password) return 'credentials in URLs are not accepted';
  if (!url.hostname) return 'the URL has no host';
  return url;
}

/**
 * The IP address of a URL whose host is an IP literal, else null. WHATWG parsing has already
 * turned `0x7f.1` and `2130706433` into `127.0.0.1` and compressed IPv6 literals.
 */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return net.isIP(host) ? host : null;
}

/** A refusal for a parsed URL whose host is a refused IP literal, else null. */
export function refuseLiteral(url: URL, guard: AddressGuard): OutboundRefusal | null {
  const literal = literalAddress(url);
  const why = literal === null ? null : guard.refusal(literal);
  return why === null ? null : { ok: false, reason: 'blocked_address', detail: `${literal} (${why})` };
}

/**
 * Checks a URL without connecting: its form, and every address its host resolves to. Resolution
 * failures pass (the host may exist later); the guarded fetch checks again when it connects.
 */
export async function checkOutboundUrl(raw: string, policy: OutboundPolicy): Promise<{ ok: true; url: string } | OutboundRefusal> {
  const url = parseOutboundUrl(raw);
  if (typeof url === 'string') return { ok: false, reason: 'invalid_url', detail: url };
  const guard = createAddressGuard(policy);
  const literal = refuseLiteral(url, guard);
  if (literal) return literal;
  if (literalAddress(url) === null) {
    try {
      await guard.resolveChecked(url.hostname);
    } catch (err) {
      if (err instanceof BlockedAddressError) return { ok: false, reason: 'blocked_address', detail: err.message };
    }
  }
  return { ok: true, url: url.href };
}
