/** A URL as permission rules and remembered answers see it: one spelling per address. */
export interface RuleUrl {
  /**
   * Lower case, without the trailing dot(s) of a fully qualified name (`EVIL.example.` is
   * `evil.example`); an IPv4-mapped IPv6 address as the IPv4 address it reaches
   * (`[::ffff:1.2.3.4]` is `1.2.3.4`).
   */
  host: string;
  /** The WHATWG-normalised URL with that host: scheme and host lower case, default port dropped. */
  href: string;
}

/**
 * Parses a URL for rule matching, or undefined when it does not parse. `new URL` already
 * lower-cases the scheme and host, decodes IPv4 spellings (`0x7f.1` is `127.0.0.1`) and
 * drops a default port; the trailing dot of a fully qualified name is removed here, since
 * DNS treats `evil.example.` as `evil.example` and a deny rule must too, and an
 * IPv4-mapped IPv6 address is written as its IPv4 address, which is what it dials.
 */
export function ruleUrl(text: string): RuleUrl | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const host = mappedIPv4(url.hostname) ?? url.hostname.replace(/\.+$/, '');
  if (host !== url.hostname && host !== '') url.hostname = host;
  return { host: host === '' ? url.hostname : host, href: url.href };
}

/** `[::ffff:7f00:1]` (how `new URL` writes every IPv4-mapped spelling) as `127.0.0.1`. */
function mappedIPv4(host: string): string | undefined {
  const groups = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (!groups) return undefined;
  const [high, low] = [parseInt(groups[1]!, 16), parseInt(groups[2]!, 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}
