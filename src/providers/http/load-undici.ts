/**
 * undici, loaded on the first HTTP request. Importing it at start-up also pulls in
 * Node's bundled fetch internals, which costs tens of milliseconds before the daemon
 * can answer `initialize`.
 */
let loading: Promise<typeof import('undici')> | undefined;

type Undici = typeof import('undici');

export function loadUndici(): Promise<Undici> {
  // undici is CommonJS: Node's import gives its exports by name and as `default`, but the
  // bundled CLI (esbuild, scripts/bundle-cli.mjs) gives only `default`. Take whichever has them.
  loading ??= import('undici').then((module) => (typeof module.request === 'function' ? module : (module as unknown as { default: Undici }).default));
  return loading;
}
