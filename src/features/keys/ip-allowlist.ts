/** API-key IP allowlists: exact IPv4/IPv6 addresses and CIDR ranges; IPv4-mapped IPv6 matches its IPv4 form. */
import net from 'node:net';
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** True when the entry is an IP address or a CIDR range. */
export function isIpOrCidr(entry: string): boolean {
  return toRange(entry) !== null;
}

function toRange(entry: string): Range | null {
  // Addresses as written in the standard forms only: ipaddr.js also reads "0127.0.0.1" (octal, so
  // 87.0.0.1), "0x7f.0.0.1", "127.1" and "2130706433", which an operator would not expect.
  const slash = entry.indexOf('/');
  if (net.isIP(slash === -1 ? entry : entry.slice(0, slash)) === 0) return null;
  if (slash !== -1 && !/^\d{1,3}$/.test(entry.slice(slash + 1))) return null;
  try {
    if (entry.includes('/')) {
      const [address, bits] = ipaddr.parseCIDR(entry);
      if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
        return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
      }
      return [address, bits];
    }
    if (!ipaddr.isValid(entry)) return null;
    const address = ipaddr.process(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return null;
  }
}

/** A predicate over client addresses; an empty list allows every address. */
export function compileAllowlist(entries: readonly string[]): (ip: string) => boolean {
  if (entries.length === 0) return () => true;
  const ranges = entries.map(toRange).filter((r): r is Range => r !== null);
  return (ip) => {
    let address: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      address = ipaddr.process(ip);
    } catch {
      return false;
    }
    return ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base as never, bits));
  };
}
