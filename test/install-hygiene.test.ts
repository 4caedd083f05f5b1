import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * What `npm install` tells a newcomer on a fresh machine: nothing to worry about. The
 * lockfile agrees with package.json, every dependency that runs an install script is
 * declared in `allowScripts` (npm 11 warns about the others, and npm 12 skips them), and
 * no pinned version conflicts with a peer's range (npm prints ERESOLVE otherwise).
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { bin: Record<string, string>; allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(`${ROOT}package-lock.json`, 'utf8')) as {
  packages: Record<string, { bin?: Record<string, string>; version?: string; resolved?: string; hasInstallScript?: boolean; dev?: boolean; optional?: boolean }>;
};

describe('install hygiene', () => {
  it("the lockfile records package.json's bin", () => {
    expect(lock.packages['']?.bin).toEqual(manifest.bin);
  });

  it('every dependency with an install script is declared in allowScripts', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([where, entry]) => where !== '' && entry.hasInstallScript)
      .map(([where, entry]) => ({ name: where.replace(/^.*node_modules\//, ''), version: entry.version }));
    expect(withScripts.length).toBeGreaterThan(0);
    const allowed = manifest.allowScripts ?? {};
    const missing = withScripts.filter(({ name, version }) => allowed[name] !== true && allowed[`${name}@${version}`] !== true);
    expect(missing, 'run `npm install-scripts approve NAME` for each, after reviewing its script').toEqual([]);
  });

  it('a dependency approved by name@version keeps its resolved address in the lockfile', () => {
    // npm matches `name@version` in allowScripts against the registry address it resolved; an
    // entry without one (a machine set to omit-lockfile-registry-resolved rewrites the lock so)
    // is "not yet covered" and warns on a fresh install.
    const allowed = manifest.allowScripts ?? {};
    const unresolved = Object.entries(lock.packages)
      .filter(([where, entry]) => where !== '' && entry.hasInstallScript && allowed[`${where.replace(/^.*node_modules\//, '')}@${entry.version}`] === true)
      .filter(([, entry]) => !entry.resolved?.startsWith('https://registry.npmjs.org/'))
      .map(([where]) => where);
    expect(unresolved, 'restore their "resolved" registry addresses in package-lock.json').toEqual([]);
  });

  it('the installed tree satisfies every peer range (no ERESOLVE overrides)', () => {
    // `npm ls` exits non-zero and names the package when an installed version is invalid for a dependent's range.
    expect(() => execFileSync('npm', ['ls', '--all', '--silent'], { cwd: ROOT, stdio: 'pipe' })).not.toThrow();
  });
});
