import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { loadUndici } from '../../providers/http/load-undici.js';
import { publicAddressesOnly, type AddressPolicy } from './ssrf-guard.js';
import { ToolError } from '../tool-error.js';

/** One resolved address. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Rules and limits for one fetch. */
export interface GuardedFetchOptions {
  /** Which addresses may be dialled (default: public unicast only). */
  isAddressAllowed?: AddressPolicy;
  /** When set, only these hosts (exact, or `*.example.com` for subdomains) may be fetched. */
  allowedHosts?: string[];
  /** Hostname resolution (default `dns.lookup` with `all: true`); injectable for tests. */
  resolveHost?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Redirects followed before giving up (default 5). */
  maxRedirects?: number;
  /**
   * Called before a redirect is followed, after its target was parsed (http or https only)
   * and before it is dialled; rejecting refuses the redirect with that error. web_fetch
   * puts each new host through the session's permission gate here.
   */
  beforeRedirect?: (hop: RedirectHop) => Promise<void>;
  /** Body bytes read before stopping (the rest is discarded). */
  maxBytes: number;
  /** Aborts the whole fetch (user cancel or timeout). */
  signal: AbortSignal;
}

/** One redirect about to be followed. */
export interface RedirectHop {
  /** The URL that answered with the redirect. */
  from: URL;
  /** Where it leads (the Location resolved against `from`). */
  to: URL;
  /** The redirect's HTTP status (301, 302, 303, 307, 308, …). */
  status: number;
}

/** A fetched response, after redirects. */
export interface GuardedResponse {
  /** The URL that answered (after redirects). */
  url: string;
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** True when the body was longer than maxBytes and was cut. */
  truncated: boolean;
}

const USER_AGENT = 'agentd-web-fetch/0.1';

async function defaultResolve(hostname: string): Promise<ResolvedAddress[]> {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** True when `host` is allowed by the allowlist entries (`example.com` or `*.example.com`). */
export function hostAllowed(host: string, allowedHosts: string[]): boolean {
  const h = host.toLowerCase();
  return allowedHosts.some((entry) => {
    const e = entry.toLowerCase();
    return e.startsWith('*.') ? h.endsWith(e.slice(1)) : h === e;
  });
}

/**
 * GET with a server-side request forgery guard on the address actually dialled: each hop's
 * hostname is resolved once, every address must pass the policy, and the connection is
 * made to that checked address only (the undici Agent's `connect.lookup` returns it, so a
 * second DNS answer — DNS rebinding — cannot switch it). Redirects are followed by hand
 * and each target is checked the same way.
 */
export async function guardedFetch(rawUrl: string, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const maxRedirects = options.maxRedirects ?? 5;
  let url = parseHttpUrl(rawUrl);
  for (let hop = 0; ; hop += 1) {
    const target = await checkTarget(url, options);
    const { Agent, request } = await loadUndici();
    const agent = new Agent({ connect: { lookup: pinnedLookup(target) } });
    try {
      const response = await request(url, {
        method: 'GET',
        dispatcher: agent,
        signal: options.signal,
        headers: { 'user-agent': USER_AGENT, accept: 'text/html, text/markdown, text/plain, application/json, */*;q=0.8' },
      });
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && location !== undefined) {
        await response.body.dump();
        if (hop >= maxRedirects) throw new ToolError(`Too many redirects (more than ${maxRedirects}) starting at ${rawUrl}.`);
        const to = parseHttpUrl(new URL(Array.isArray(location) ? (location[0] ?? '') : location, url).toString());
        await options.beforeRedirect?.({ from: url, to, status: response.statusCode });
        url = to;
        continue;
      }
      const { body, truncated } = await readCapped(response.body, options.maxBytes);
      return { url: url.toString(), status: response.statusCode, headers: response.headers, body, truncated };
    } finally {
      await agent.close();
    }
  }
}

function parseHttpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ToolError(`Not a valid URL: ${text}. Pass an absolute http:// or https:// URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError(`Only http and https URLs can be fetched (got ${url.protocol}).`);
  }
  return url;
}

async function checkTarget(url: URL, options: GuardedFetchOptions): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (options.allowedHosts && !hostAllowed(host, options.allowedHosts)) {
    throw new ToolError(`Fetching ${host} is not allowed; allowed hosts: ${options.allowedHosts.join(', ')}.`);
  }
  const family = isIP(host);
  const addresses =
    family !== 0
      ? [{ address: host, family: family as 4 | 6 }]
      : await (options.resolveHost ?? defaultResolve)(host).catch((error: Error) => {
          throw new ToolError(`Could not resolve ${host}: ${error.message}`);
        });
  const first = addresses[0];
  if (!first) throw new ToolError(`Could not resolve ${host}: no addresses.`);
  const allowed = options.isAddressAllowed ?? publicAddressesOnly;
  const blocked = addresses.find((a) => !allowed(a.address));
  if (blocked) {
    throw new ToolError(
      `Refused to fetch ${url.toString()}: ${host} resolves to ${blocked.address}, a private, loopback, link-local or otherwise ` +
        'non-public address. web_fetch only reaches public internet addresses.',
    );
  }
  return first;
}

/** A `net.connect` lookup that answers every query with the one checked address. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

async function readCapped(body: AsyncIterable<Buffer>, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early ends the iterator, which destroys the stream (no more reading).
  for await (const chunk of body) {
    const room = maxBytes - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}
