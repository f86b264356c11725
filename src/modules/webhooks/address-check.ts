// Where a webhook may be delivered: public unicast addresses only. Pure.
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (includes Teredo, ORCHID)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/**
 * An IPv6 address as its 16 bytes, whatever way it is written: "::" anywhere, leading
 * zeros, upper case, a trailing dotted quad. Undefined for anything else (zone ids too).
 */
export function ipv6Bytes(ip: string): Uint8Array | undefined {
  if (ip.length > 45 || isIP(ip) !== 6 || ip.includes('%')) return undefined;
  let text = ip.toLowerCase();
  // A trailing dotted quad is the last two words: rewrite it as them.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const parts = tail.split('.').map(Number);
    if (parts.length !== 4 || parts.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) return undefined;
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
    text = `${text.slice(0, lastColon + 1)}${hex(parts[0]!, parts[1]!)}:${hex(parts[2]!, parts[3]!)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (h: string) =>
    h === '' ? [] : h.split(':').map((w) => (/^[0-9a-f]{1,4}$/.test(w) ? parseInt(w, 16) : NaN));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const given = head.length + rest.length;
  if ([...head, ...rest].some(Number.isNaN) || given > 8 || (halves.length === 1 && given !== 8))
    return undefined;
  const words = [...head, ...new Array<number>(8 - given).fill(0), ...rest];
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[2 * i] = w >> 8;
    bytes[2 * i + 1] = w & 255;
  });
  return bytes;
}

const zeros = (b: Uint8Array, from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
const quad = (b: Uint8Array, at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;

/**
 * The IPv4 address inside an IPv4-mapped (::ffff:0:0/96), -translated (::ffff:0:0:0/96),
 * -compatible (::/96), NAT64 (64:ff9b::/96) or 6to4 (2002::/16) IPv6 address, however
 * it is written (`::7f00:1`, `0:0:0:0:0:ffff:127.0.0.1`, `::ffff:0:7f00:1` …), if any.
 */
export function embeddedIPv4(ip: string): string | undefined {
  const b = ipv6Bytes(ip);
  if (!b) return undefined;
  if (zeros(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return quad(b, 12); // mapped
  if (zeros(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(b, 10, 12)) return quad(b, 12); // translated
  if (zeros(b, 0, 12)) return quad(b, 12); // compatible (also :: and ::1, refused either way)
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(b, 4, 12)) return quad(b, 12); // NAT64
  if (b[0] === 0x20 && b[1] === 0x02) return quad(b, 2); // 6to4
  return undefined;
}

/** The canonical text of an IPv6 address (eight full words), so BlockList sees one form. */
function canonicalIPv6(b: Uint8Array): string {
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push(((b[i]! << 8) | b[i + 1]!).toString(16));
  return words.join(':');
}

export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return !blocked.check(ip, 'ipv4');
  if (family === 6) {
    const bytes = ipv6Bytes(ip);
    if (!bytes) return false;
    // ::/96 holds :: and ::1 too; both, and every IPv4-compatible form, are refused
    // (the compatible forms are deprecated and never a public peer).
    if (zeros(bytes, 0, 12)) return false;
    const v4 = embeddedIPv4(ip);
    if (v4 !== undefined) return !blocked.check(v4, 'ipv4');
    return !blocked.check(canonicalIPv6(bytes), 'ipv6');
  }
  return false;
}
