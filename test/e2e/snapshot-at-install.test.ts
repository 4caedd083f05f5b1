import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome } from '../support/daemon-process.js';
import { serveThrough } from '../support/serve-through-bin.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'dist');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; files: string[] };
const PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`;

/** Runs the package's postinstall script exactly as package.json gives it, in `root`, as npm does. */
function postinstall(root: string): { status: number | null; stderr: string } {
  const result = spawnSync('sh', ['-c', PACKAGE.scripts.postinstall!], { cwd: root, env: { ...process.env, PATH }, encoding: 'utf8' });
  return { status: result.status, stderr: result.stderr };
}

describe('the start-up snapshot of an install from the registry, built at postinstall', () => {
  let home: ReturnType<typeof makeHome>;
  let scratch: string;
  beforeEach(() => {
    home = makeHome();
    // Inside dist/, so that the copy's chunks find node_modules as an installed package's do.
    scratch = mkdtempSync(join(DIST, 'install-test-'));
  });
  afterEach(() => {
    home.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** The package as npm unpacks it from the registry: the published files, without this machine's snapshot. */
  function unpackedPackage(): string {
    const root = join(scratch, 'package');
    mkdirSync(join(root, 'scripts'), { recursive: true });
    cpSync(join(DIST, 'bin'), join(root, 'dist', 'bin'), {
      recursive: true,
      filter: (path) => !path.endsWith('.map') && !/serve-snapshot\.(blob|key)$/.test(path),
    });
    for (const file of PACKAGE.files.filter((entry) => entry.startsWith('scripts/'))) cpSync(join(ROOT, file), join(root, file));
    return root;
  }

  it('publishes the postinstall script and what it needs', () => {
    expect(PACKAGE.scripts.postinstall).toBe('node scripts/snapshot-at-install.mjs');
    // What npm publishes is `files` (dist/ whole, so the launcher and the serve bundle; the scripts by name).
    expect(PACKAGE.files).toEqual(expect.arrayContaining(['dist', 'scripts/snapshot-at-install.mjs', 'scripts/snapshot-blob.mjs']));
    expect(existsSync(join(ROOT, '.npmignore'))).toBe(false);
    // The scripts need nothing the registry's install lacks (esbuild and tsc are the build's).
    for (const script of ['snapshot-at-install.mjs', 'snapshot-blob.mjs']) {
      const imports = [...readFileSync(join(ROOT, 'scripts', script), 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map((match) => match[1]);
      expect(imports.every((name) => name!.startsWith('node:') || name!.startsWith('./')), `${script}: ${imports.join(', ')}`).toBe(true);
    }
  });

  it('builds the snapshot for the installing Node, and serve starts from it', async () => {
    const root = unpackedPackage();
    const bin = join(root, 'dist', 'bin');
    expect(existsSync(join(bin, 'serve-snapshot.blob'))).toBe(false);
    expect(postinstall(root)).toEqual({ status: 0, stderr: '' });
    expect(readFileSync(join(bin, 'serve-snapshot.key'), 'utf8')).toContain(` ${process.execPath} `);
    const { commandLine, stderr, sessionId } = await serveThrough(join(bin, 'agentd'), home.home, scratch);
    expect(commandLine).toContain(`--snapshot-blob ${join(bin, 'serve-snapshot.blob')}`);
    expect(stderr).toBe('');
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('replaces a snapshot built by another Node (the publisher\'s), and keeps one built for this Node', () => {
    const root = unpackedPackage();
    const bin = join(root, 'dist', 'bin');
    writeFileSync(join(bin, 'serve-snapshot.blob'), 'the publisher’s blob');
    writeFileSync(join(bin, 'serve-snapshot.key'), `1 2 3 4 /opt/other/node ${bin}\n`);
    expect(postinstall(root).status).toBe(0);
    const key = readFileSync(join(bin, 'serve-snapshot.key'), 'utf8');
    expect(key).toContain(` ${process.execPath} `);
    const blob = readFileSync(join(bin, 'serve-snapshot.blob'));
    expect(blob.toString('utf8', 0, 20)).not.toBe('the publisher’s blob');
    // A second run (npm rebuild) finds it current and leaves it as it is.
    writeFileSync(join(bin, 'serve-snapshot.modules.json'), '[]');
    expect(postinstall(root).status).toBe(0);
    expect(readFileSync(join(bin, 'serve-snapshot.key'), 'utf8')).toBe(key);
    expect(readFileSync(join(bin, 'serve-snapshot.blob')).equals(blob)).toBe(true);
  });

  it('does nothing in a source checkout, whose prepare builds everything after it', () => {
    const root = unpackedPackage();
    rmSync(join(root, 'dist'), { recursive: true });
    expect(postinstall(root)).toEqual({ status: 0, stderr: '' });
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });

  it('never fails the install: a snapshot that cannot be built is one line, and serve starts without it', async () => {
    const root = unpackedPackage();
    const bin = join(root, 'dist', 'bin');
    writeFileSync(join(bin, 'chunks', 'serve-snapshot.cjs'), 'throw new Error("this bundle cannot run");\n');
    const { status, stderr } = postinstall(root);
    expect(status).toBe(0);
    expect(stderr).toMatch(/^agentd: no start-up snapshot \(agentd serve starts without one\): .*this bundle cannot run.*\n$/);
    expect(existsSync(join(bin, 'serve-snapshot.key'))).toBe(false);
    const served = await serveThrough(join(bin, 'agentd'), home.home, scratch);
    expect(served.commandLine).not.toContain('--snapshot-blob');
    expect(served.stderr).toBe(`agentd: started without the start-up snapshot: no usable start-up snapshot at ${join(bin, 'serve-snapshot.blob')}\n`);
  });
});
