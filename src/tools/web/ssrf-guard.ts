import { isIP } from 'node:net';

/** What kind of address an IP is, for deciding whether web_fetch may dial it. */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'invalid';

/** Decides whether an address may be dialled; injectable so tests can allow 127.0.0.1. */
export type AddressPolicy = (address: string) => boolean;

type Range = [base: number, bits: number, kind: AddressClass];

// IPv4 special-purpose ranges (RFC 6890 and the IANA registry).
const V4_RANGES: Range[] = [
  [ip4(0, 0, 0, 0), 8, 'unspecified'], // "this network"; 0.0.0.0 reaches localhost on Linux
  [ip4(10, 0, 0, 0), 8, 'private'],
  [ip4(100, 64, 0, 0), 10, 'cgnat'],
  [ip4(127, 0, 0, 0), 8, 'loopback'],
  [ip4(169, 254, 0, 0), 16, 'link-local'], // includes cloud metadata 169.254.169.254
  [ip4(172, 16, 0, 0), 12, 'private'],
  [ip4(192, 0, 0, 0), 24, 'reserved'],
  [ip4(192, 0, 2, 0), 24, 'reserved'],
  [ip4(192, 88, 99, 0), 24, 'reserved'],
  [ip4(192, 168, 0, 0), 16, 'private'],
  [ip4(198, 18, 0, 0), 15, 'reserved'],
  [ip4(198, 51, 100, 0), 24, 'reserved'],
  [ip4(203, 0, 113, 0), 24, 'reserved'],
  [ip4(224, 0, 0, 0), 4, 'multicast'],
  [ip4(240, 0, 0, 0), 4, 'reserved'], // includes 255.255.255.255 broadcast
];

function ip4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
}

/** Classifies an IPv4 or IPv6 address (IPv6 may carry a `%zone` or brackets). */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return classifyV4(parseV4(bare));
  if (family === 6) return classifyV6(parseV6(bare));
  return 'invalid';
}

/** The default policy: only public unicast addresses. */
export const publicAddressesOnly: AddressPolicy = (address) => classifyAddress(address) === 'public';

function parseV4(text: string): number {
  const [a = 0, b = 0, c = 0, d = 0] = text.split('.').map(Number);
  return ip4(a, b, c, d);
}

function classifyV4(value: number): AddressClass {
  for (const [base, bits, kind] of V4_RANGES) {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    if (((value & mask) >>> 0) === base) return kind;
  }
  return 'public';
}

/** Eight 16-bit groups; `isIP` has already validated the syntax. */
function parseV6(text: string): number[] {
  let body = text.toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (dotted?.[1]) {
    const v4 = parseV4(dotted[1]);
    tail.push(v4 >>> 16, v4 & 0xffff);
    body = body.slice(0, -dotted[1].length);
    if (body.endsWith(':') && !body.endsWith('::')) body = body.slice(0, -1);
  }
  const [left = '', right] = body.split('::');
  const toGroups = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const head = toGroups(left);
  const rest = [...(right === undefined ? [] : toGroups(right)), ...tail];
  if (right === undefined) return [...head, ...tail];
  return [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}

function classifyV6(g: number[]): AddressClass {
  const at = (i: number): number => g[i] ?? 0;
  const zeroUpTo = (n: number): boolean => g.slice(0, n).every((x) => x === 0);
  const embeddedV4 = (hi: number, lo: number): AddressClass => classifyV4(((at(hi) << 16) >>> 0) + at(lo));
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && at(7) === 1) return 'loopback';
  if (zeroUpTo(5) && at(5) === 0xffff) return embeddedV4(6, 7); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeroUpTo(6)) return embeddedV4(6, 7); // ::a.b.c.d, deprecated IPv4-compatible
  if (at(0) === 0x64 && at(1) === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return embeddedV4(6, 7); // NAT64
  if (at(0) === 0x2002) return embeddedV4(1, 2); // 6to4 carries the IPv4 address
  if ((at(0) & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((at(0) & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((at(0) & 0xffc0) === 0xfec0) return 'private'; // fec0::/10 site-local (deprecated)
  if ((at(0) & 0xff00) === 0xff00) return 'multicast'; // ff00::/8
  if (at(0) === 0x2001 && at(1) === 0x0db8) return 'reserved'; // documentation
  if (at(0) === 0x2001 && at(1) === 0) return 'reserved'; // Teredo hides an IPv4 address
  if (at(0) < 0x2000 || at(0) > 0x3fff) return 'reserved'; // outside global unicast 2000::/3 (e.g. discard 100::/64)
  return 'public';
}
