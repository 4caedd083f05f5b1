import { loadUndici } from '../providers/http/load-undici.js';

let warmed = false;

/**
 * Loads the HTTP client the providers use (undici: about 75 ms of module compilation on
 * a 2-core machine) once a client follows a session, after the current answer has gone
 * out, so that the session's first prompt does not pay for it between `session/prompt`
 * and its model request. Start-up and `initialize` stay without it.
 */
export function warmModelTransport(): void {
  if (warmed) return;
  warmed = true;
  setImmediate(() => void loadUndici().catch(() => undefined));
}
