import { isIP } from 'node:net';

/** Where the page is served. */
export interface HttpAddress {
  host: string;
  port: number;
}

/** Parses `[HOST:]PORT` (IPv6 as `[::1]:PORT`); no host means 127.0.0.1. `source` names where it came from, for the error. */
export function parseHttpAddress(value: string, source: string): HttpAddress {
  const match = /^(?:(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):)?(\d{1,5})$/.exec(value);
  const port = Number(match?.[3]);
  if (!match || port > 65535) {
    throw new Error(`${source} expects [HOST:]PORT such as 7780 or 127.0.0.1:7780 (IPv6 as [::1]:7780; port 0 lets the OS pick), got ${JSON.stringify(value)}`);
  }
  return { host: match[1] ?? match[2] ?? '127.0.0.1', port };
}

/** Whether only this machine can reach the host: 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

/** `host:port` as a Host header and a URL write it (IPv6 in brackets). */
export function formatHostPort(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}
