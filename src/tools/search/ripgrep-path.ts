import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ToolError } from '../tool-error.js';

/** Found binaries by PATH value; a miss is not cached, so installing rg needs no restart. */
const cache = new Map<string, string>();

/**
 * The ripgrep binary glob and grep run: `@vscode/ripgrep`'s `rgPath` when that package is
 * installed and its binary was downloaded (its postinstall fetches it from GitHub, which
 * fails offline), else `rg` on PATH (Debian/Ubuntu: `apt-get install ripgrep`).
 */
export function ripgrepPath(env: NodeJS.ProcessEnv = process.env): string {
  const searchPath = env.PATH ?? '';
  const known = cache.get(searchPath);
  if (known) return known;
  const found = fromNpmPackage() ?? fromPath(searchPath);
  if (!found) {
    throw new ToolError(
      'ripgrep (rg) is not installed, so glob and grep cannot run. Install it with `apt-get install ripgrep` ' +
        '(or `brew install ripgrep`), or `npm install @vscode/ripgrep` where its download can reach GitHub.',
    );
  }
  cache.set(searchPath, found);
  return found;
}

function fromNpmPackage(): string | undefined {
  try {
    // Optional dependency: resolved at run time so its absence is not a compile error.
    const loaded = createRequire(import.meta.url)('@vscode/ripgrep') as { rgPath?: unknown };
    return typeof loaded.rgPath === 'string' && isExecutable(loaded.rgPath) ? loaded.rgPath : undefined;
  } catch {
    return undefined;
  }
}

function fromPath(searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'rg');
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
