/** A URL as permission rules and remembered answers see it: one spelling per address. */
export interface RuleUrl {
  /** Lower case, without the trailing dot(s) of a fully qualified name (`EVIL.example.` is `evil.example`). */
  host: string;
  /** The WHATWG-normalised URL with that host: scheme and host lower case, default port dropped. */
  href: string;
}

/**
 * Parses a URL for rule matching, or undefined when it does not parse. `new URL` already
 * lower-cases the scheme and host, decodes IPv4 spellings (`0x7f.1` is `127.0.0.1`) and
 * drops a default port; the trailing dot of a fully qualified name is removed here, since
 * DNS treats `evil.example.` as `evil.example` and a deny rule must too.
 */
export function ruleUrl(text: string): RuleUrl | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const host = url.hostname.replace(/\.+$/, '');
  if (host !== url.hostname && host !== '') url.hostname = host;
  return { host: host === '' ? url.hostname : host, href: url.href };
}
