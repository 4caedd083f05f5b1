import type * as Http from 'node:http';
import type * as Https from 'node:https';

/**
 * Node's http and https modules, loaded on first use (a model's prepare() after session/new,
 * or its first request). The daemon proper's modules are evaluated into the start-up
 * snapshot (src/cli/serve-snapshot.ts), and Node 20's snapshot builder cannot load these
 * two (node:http throws there, node:https aborts it), so no module of that graph may load
 * them as it is evaluated.
 */
let http: typeof Http | undefined;
let https: typeof Https | undefined;

export function nodeHttp(): typeof Http {
  http ??= process.getBuiltinModule('node:http');
  return http;
}

export function nodeHttps(): typeof Https {
  https ??= process.getBuiltinModule('node:https');
  return https;
}

/** The client module for a URL's scheme. */
export function clientFor(url: URL): typeof Http | typeof Https {
  return url.protocol === 'https:' ? nodeHttps() : nodeHttp();
}
