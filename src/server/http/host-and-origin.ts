import { formatHostPort, type HttpAddress } from './http-address.js';

/**
 * The `Host` values the page answers to: the bound address and `localhost`, with the bound
 * port, spelled exactly as a browser sends them for the printed address. Anything else
 * (another name resolving to 127.0.0.1 by DNS rebinding, another port, a trailing dot,
 * other case) is refused, so a page from another site can never read an answer by making
 * its own name point here.
 */
export function allowedHosts(bound: HttpAddress): Set<string> {
  return new Set([formatHostPort(bound.host, bound.port), `localhost:${bound.port}`]);
}

/** Why a Host header is refused, or undefined when it is one of the allowed ones. */
export function refuseHost(host: string | undefined, allowed: ReadonlySet<string>): string | undefined {
  if (host === undefined) return 'the request has no Host header';
  if (!allowed.has(host)) return `this server answers only to Host ${[...allowed].join(' or ')}, not ${JSON.stringify(host.slice(0, 100))}`;
  return undefined;
}

/**
 * Why a WebSocket upgrade's Origin is refused: it must be exactly the page's own origin
 * (`http://` + the Host it came to, already checked). An absent Origin (not a browser, or one
 * that hides it) and `null` (a sandboxed frame, a file) are refused too.
 */
export function refuseOrigin(origin: string | undefined, host: string): string | undefined {
  const own = `http://${host}`;
  if (origin === undefined) return `the WebSocket upgrade has no Origin; only the page at ${own} may connect`;
  if (origin !== own) return `the WebSocket upgrade comes from ${JSON.stringify(origin.slice(0, 100))}; only the page at ${own} may connect`;
  return undefined;
}
