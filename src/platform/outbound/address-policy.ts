/**
 * Which IP addresses outbound requests may reach when the private network is off limits: only
 * global unicast. Everything else (loopback, private, link-local, unique-local, multicast,
 * carrier-grade NAT, documentation and other reserved ranges) is refused, including IPv4
 * addresses wrapped in IPv6 (mapped, NAT64, 6to4) that land on a refused IPv4 address.
 */
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/** The only IPv6 block allocated for global unicast (2000::/3); anything outside it is refused. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** NAT64 well-known prefix (RFC 6052): the last 32 bits are the IPv4 destination. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * Names the refused range an address falls in (ipaddr.js's range name, e.g. `loopback`,
 * `private`, `linkLocal`), `invalid` when it is not an IP address, or null when it may be reached.
 */
export function blockedRangeOf(address: string): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // Zone ids (fe80::1%eth0) only occur on link-local addresses, which are refused anyway.
  const withoutZone = bare.includes('%') ? bare.slice(0, bare.indexOf('%')) : bare;
  // Only canonical forms: DNS answers and WHATWG-normalised hosts are canonical, and refusing the
  // odd spellings ipaddr.js would also accept (octal, hex parts) keeps the two from disagreeing.
  if (ipaddr.IPv4.isValidFourPartDecimal(withoutZone)) return blockedV4(ipaddr.IPv4.parse(withoutZone));
  if (ipaddr.IPv6.isValid(withoutZone)) return blockedV6(ipaddr.IPv6.parse(withoutZone));
  return 'invalid';
}

/** True when an address is public (global unicast) and so may be reached without the private-network flag. */
export function isPublicAddress(address: string): boolean {
  return blockedRangeOf(address) === null;
}

function blockedV4(ip: IPv4): string | null {
  const range = ip.range();
  return range === 'unicast' ? null : range;
}

function blockedV6(ip: IPv6): string | null {
  const range = ip.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return wrapped(range, embeddedV4(ip, 12));
  if (ip.match(NAT64_WELL_KNOWN)) return wrapped('rfc6052', embeddedV4(ip, 12));
  if (range === '6to4') return wrapped(range, embeddedV4(ip, 2));
  if (range !== 'unicast') return range;
  if (!ip.match(GLOBAL_UNICAST_V6)) return 'unallocated';
  return null;
}

/** The IPv4 address stored in four bytes of an IPv6 address, starting at `offset`. */
function embeddedV4(ip: IPv6, offset: number): IPv4 {
  const bytes = ip.toByteArray().slice(offset, offset + 4);
  return new ipaddr.IPv4(bytes);
}

function wrapped(outer: string, inner: IPv4): string | null {
  const innerRange = blockedV4(inner);
  return innerRange === null ? null : `${outer}:${innerRange}`;
}
