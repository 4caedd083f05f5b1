import { readFileSync } from 'node:fs';

/** agentd's version from package.json (dist/src/cli → package root, or src/cli under tests). */
export function packageVersion(): string {
  for (const relative of ['../../../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'agentd' && pkg.version) return pkg.version;
    } catch {
      // Try the next layout.
    }
  }
  return '0.0.0';
}
