import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `dist/web/` of the agentd package, where `npm run build` puts the page: found by walking
 * up from this module to agentd's package.json, which works from the sources (tests), from
 * tsc's output and from the bundle with its chunks alike.
 */
export function defaultWebRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    try {
      const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'agentd') return join(folder, 'dist', 'web');
    } catch {
      // Not the package root yet.
    }
    folder = dirname(folder);
  }
  // Not inside the package (cannot happen in an install): the page answers "not built".
  return join(dirname(fileURLToPath(import.meta.url)), 'web');
}
