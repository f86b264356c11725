// Who a client is, for every per-address limit (requests, sign-in failures, sign-ups, unpaid
// bookings, bad webhook signatures, open connections). An IPv4 address is one client. An IPv6
// client is its /64: a provider hands each customer at least a /64 and the customer picks any
// of its 2^64 addresses at will, so counting whole addresses would leave such a client
// unlimited. An IPv4 address written as IPv6 (`::ffff:203.0.113.7`, what a dual-stack socket
// reports) is the IPv4 address. The arithmetic is ipaddr.js's, not a parser of our own.
import ipaddr from 'ipaddr.js';

/** The prefix length an IPv6 client is counted by. */
export const IPV6_CLIENT_PREFIX = 64;

/**
 * The key a client address is counted under: `203.0.113.7`, or `2001:db8:1:2::/64` for every
 * address of that /64. Text that is no IP address (a socket already closed has none) is its
 * own key, so it never shares a count with a real client.
 */
export function addressKey(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  // The common case, an IPv4 peer, needs no parsing.
  if (!address.includes(':')) return address;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return address;
  }
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/${IPV6_CLIENT_PREFIX}`;
}

/**
 * A test of whether an address falls in any of these addresses or CIDRs (TRUST_PROXY's list:
 * the proxies whose connections carry many clients). IPv4-mapped IPv6 addresses match their
 * IPv4 ranges.
 */
export function addressMatcher(entries: readonly string[]): (address: string | undefined) => boolean {
  const ranges = entries.map((e) => {
    if (e.includes('/')) return ipaddr.parseCIDR(e);
    const a = ipaddr.parse(e);
    return [a, a.kind() === 'ipv4' ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number];
  });
  return (address) => {
    if (address === undefined || !ipaddr.isValid(address)) return false;
    const a = ipaddr.process(address);
    return ranges.some(([range, bits]) => {
      // An IPv4 range also names those addresses written as IPv4-mapped IPv6, and the reverse.
      if (a.kind() !== range.kind()) {
        if (range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
          return a.match((range as ipaddr.IPv6).toIPv4Address(), bits - 96);
        }
        return false;
      }
      return a.match(range, bits);
    });
  };
}

/** Whether HOST names this machine only (127.0.0.0/8, ::1, localhost): nothing outside can connect. */
export function isLoopbackHost(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (!ipaddr.isValid(bare)) return false;
  return ipaddr.process(bare).range() === 'loopback';
}

/**
 * TRUST_PROXY as Fastify takes it: the proxies' addresses/CIDRs, or a hop count (the
 * nearest `hops` addresses, the socket's first, are proxies). Fastify itself treats a
 * bare number as "trust nothing", so the count is given as a function. config.ts
 * refuses "trust everything".
 */
export function trustProxy(
  setting: false | number | readonly string[],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (setting === false || setting === 0) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return [...setting];
}
