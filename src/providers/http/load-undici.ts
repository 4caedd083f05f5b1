/**
 * undici, loaded on the first HTTP request. Importing it at start-up also pulls in
 * Node's bundled fetch internals, which costs tens of milliseconds before the daemon
 * can answer `initialize`.
 */
let loading: Promise<typeof import('undici')> | undefined;

export function loadUndici(): Promise<typeof import('undici')> {
  loading ??= import('undici');
  return loading;
}
