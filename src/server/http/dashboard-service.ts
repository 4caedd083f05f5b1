import type { HttpAddress } from './http-address.js';

/** The web dashboard as the shell holds it: served at start (`--http`, `server.http`) or on the first login. */
export interface DashboardService {
  /** `http://HOST:PORT` while the page is served; null before. */
  origin(): string | null;
  /** Serves the page at the address; refused for a host that is not loopback unless `--http-any-host`. */
  serve(address: HttpAddress): Promise<string>;
  /** A fresh login address; serves HTTP first if not yet (`server.http`, else 127.0.0.1 on a port the OS picks). */
  login(): Promise<{ url: string; expiresAt: string }>;
  close(): Promise<void>;
}
