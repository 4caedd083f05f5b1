import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const require = createRequire(import.meta.url);
const loadSqliteAddon = require(join(ROOT, 'scripts', 'snapshot-sqlite-addon.cjs')) as (name: string) => { Database?: unknown };
const runtime = globalThis as { agentdSnapshotRequire?: NodeJS.Require };
const INSTALLED = dirname(require.resolve('better-sqlite3/package.json'));

/**
 * The snapshot's bundle holds better-sqlite3's JavaScript; its addon is loaded at run time
 * through the require the snapshot's entry makes beside the bundle (`agentdSnapshotRequire`).
 */
describe("the start-up snapshot's loader of the SQLite addon", () => {
  const made: string[] = [];
  afterEach(() => {
    delete runtime.agentdSnapshotRequire;
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('loads the addon from build/Release beside the installed package', () => {
    runtime.agentdSnapshotRequire = createRequire(join(ROOT, 'dist', 'bin', 'chunks', 'serve-snapshot.cjs'));
    expect(typeof loadSqliteAddon('better_sqlite3.node').Database).toBe('function');
  });

  it("falls back to bindings' own search, from the package's root, when the addon was built elsewhere", () => {
    // An install whose addon is a debug build: build/Release does not exist.
    const install = mkdtempSync(join(tmpdir(), 'agentd-sqlite-addon-'));
    made.push(install);
    const pkg = join(install, 'node_modules', 'better-sqlite3');
    mkdirSync(join(pkg, 'build', 'Debug'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'better-sqlite3', version: '0.0.0' }));
    symlinkSync(join(INSTALLED, 'build', 'Release', 'better_sqlite3.node'), join(pkg, 'build', 'Debug', 'better_sqlite3.node'));
    symlinkSync(dirname(require.resolve('bindings/package.json')), join(install, 'node_modules', 'bindings'));
    runtime.agentdSnapshotRequire = createRequire(join(install, 'dist', 'bin', 'chunks', 'serve-snapshot.cjs'));
    expect(typeof loadSqliteAddon('better_sqlite3.node').Database).toBe('function');
  });

  it('names what is missing when the package is not installed beside the bundle', () => {
    const install = mkdtempSync(join(tmpdir(), 'agentd-sqlite-addon-'));
    made.push(install);
    runtime.agentdSnapshotRequire = createRequire(join(install, 'dist', 'bin', 'chunks', 'serve-snapshot.cjs'));
    expect(() => loadSqliteAddon('better_sqlite3.node')).toThrow(/Cannot find module 'better-sqlite3\/package\.json'/);
  });
});
