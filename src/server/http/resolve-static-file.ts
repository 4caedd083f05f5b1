import { realpathSync, statSync } from 'node:fs';
import { extname, join, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * An asset path segment: letters, digits, `.`, `_`, `-`, not starting with a dot. The raw
 * path is matched before any decoding, so `..`, `%2e%2e`, `%2f`, a backslash, a NUL or a
 * double encoding never gets as far as the file system; a symbolic link that leads out of
 * the web root is caught by comparing real paths.
 */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export interface StaticFile {
  path: string;
  contentType: string;
  size: number;
}

/** The file a request path names under the web root (`/` → index.html, `/assets/…`), or undefined. */
export function resolveStaticFile(webRoot: string, rawPath: string): StaticFile | undefined {
  let relative: string[];
  if (rawPath === '/' || rawPath === '/index.html') relative = ['index.html'];
  else if (rawPath.startsWith('/assets/')) {
    relative = rawPath.slice('/assets/'.length).split('/');
    if (!relative.every((segment) => SEGMENT.test(segment))) return undefined;
    relative.unshift('assets');
  } else return undefined;
  try {
    const root = realpathSync(webRoot);
    const real = realpathSync(join(root, ...relative));
    if (!real.startsWith(root + sep)) return undefined;
    const stats = statSync(real);
    if (!stats.isFile()) return undefined;
    return { path: real, contentType: CONTENT_TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream', size: stats.size };
  } catch {
    return undefined;
  }
}
