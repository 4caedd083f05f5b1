import { createRequire } from 'node:module';

type ChokidarModule = typeof import('chokidar');

const require = createRequire(import.meta.url);
let chokidar: ChokidarModule | undefined;

/**
 * chokidar's watch, loaded when the first configuration watch starts: the daemon proper's
 * modules are evaluated into the start-up snapshot (src/cli/serve-snapshot.ts), which holds
 * no package that is not bundled, so a static import would load it there. Synchronous (its
 * CommonJS build).
 */
export function loadChokidarWatch(): ChokidarModule['watch'] {
  chokidar ??= require('chokidar') as ChokidarModule;
  return chokidar.watch;
}
