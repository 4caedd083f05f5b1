import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveCommandLine } from '../../src/cli/daemon/serve-command-line.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const BIN_DIR = join(DIST, 'bin');
const ARGS = ['serve', '--socket', '/tmp/x.sock', '--on-demand'];
const PATH_FIRST = `${dirname(process.execPath)}${delimiter}`;

/** What the launcher in `binDir` prints as its snapshot key for this Node (first on PATH, as the bridge runs it). */
function launcherKey(binDir: string): string {
  return execFileSync('sh', [join(binDir, 'agentd')], {
    env: { ...process.env, PATH: `${PATH_FIRST}${process.env.PATH ?? ''}`, AGENTD_PRINT_SNAPSHOT_KEY: '1' },
    encoding: 'utf8',
  });
}

// A bridge starts `agentd serve` straight from the start-up snapshot when the launcher
// would, checking the same key in JavaScript (the launcher's shell costs the editor's wait).
describe('how a bridge starts the daemon: from the snapshot without the launcher when its key holds', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = mkdtempSync(join(DIST, 'serve-command-line-test-'));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  /** A copy of dist/bin whose key holds for the copy, as the build writes it. */
  function copyOfTheBin(name = 'bin'): string {
    const bin = join(scratch, name);
    cpSync(BIN_DIR, bin, { recursive: true, filter: (path) => !path.endsWith('.map') });
    writeFileSync(join(bin, 'serve-snapshot.key'), launcherKey(bin));
    return bin;
  }

  it('runs what the launcher would exec, with the launcher’s flags, when the key the launcher computes is the one the build wrote', () => {
    expect(launcherKey(BIN_DIR)).toBe(readFileSync(join(BIN_DIR, 'serve-snapshot.key'), 'utf8'));
    const line = serveCommandLine(BIN_DIR, ARGS, { PATH: '/usr/bin', HOME: '/home/someone' });
    const v8Flags = /^v8_flags=(.*)$/m.exec(readFileSync(join(BIN_DIR, 'agentd'), 'utf8'))![1]!.split(' ');
    expect(line.snapshot).toBe(true);
    expect(line.command).toBe(join(dirname(process.execPath), 'node'));
    expect(line.args).toEqual([...v8Flags, '--snapshot-blob', join(BIN_DIR, 'serve-snapshot.blob'), join(BIN_DIR, 'chunks', 'serve-snapshot.cjs'), ...ARGS]);
    // The daemon's environment is the one the launcher would have run it with.
    expect(line.env).toEqual({ PATH: `${PATH_FIRST}/usr/bin`, HOME: '/home/someone' });
  });

  it('accepts the key with the blob listed first: the launcher lists the two with ls, sorted by name (an install folder before the node path)', () => {
    const bin = copyOfTheBin();
    const key = readFileSync(join(bin, 'serve-snapshot.key'), 'utf8');
    writeFileSync(join(bin, 'serve-snapshot.key'), key.replace(/^(\S+ \S+) (\S+ \S+) /, '$2 $1 '));
    expect(readFileSync(join(bin, 'serve-snapshot.key'), 'utf8')).not.toBe(key);
    expect(serveCommandLine(bin, ARGS, {}).snapshot).toBe(true);
  });

  it('follows a bin reached through a symbolic link to its real folder, as the launcher does', () => {
    const bin = copyOfTheBin();
    const linked = join(scratch, 'linked');
    symlinkSync(bin, linked);
    const line = serveCommandLine(linked, ARGS, {});
    expect(line.snapshot).toBe(true);
    expect(line.args).toContain(join(bin, 'serve-snapshot.blob'));
  });

  it('leaves it to the launcher (which logs why) for a key of another Node, a replaced blob, no key or no blob', () => {
    const cases: Array<[string, (bin: string) => void]> = [
      ['another Node', (bin) => writeFileSync(join(bin, 'serve-snapshot.key'), readFileSync(join(bin, 'serve-snapshot.key'), 'utf8').replace(/^\S+ \S+ /, '1 2 '))],
      ['another install folder', (bin) => writeFileSync(join(bin, 'serve-snapshot.key'), readFileSync(join(bin, 'serve-snapshot.key'), 'utf8').replace(/ \S+\n$/, ' /elsewhere\n'))],
      [
        'a blob replaced after the build, of the same size',
        (bin) => {
          const blob = join(bin, 'serve-snapshot.blob');
          writeFileSync(`${blob}.other`, Buffer.alloc(statSync(blob).size, 0x41));
          renameSync(`${blob}.other`, blob);
        },
      ],
      ['no key', (bin) => rmSync(join(bin, 'serve-snapshot.key'))],
      ['no blob', (bin) => rmSync(join(bin, 'serve-snapshot.blob'))],
    ];
    cases.forEach(([what, spoil], i) => {
      const bin = copyOfTheBin(`bin-${i}`);
      expect(serveCommandLine(bin, ARGS, {}).snapshot, `${what}: the copy's own key holds first`).toBe(true);
      spoil(bin);
      const line = serveCommandLine(bin, ARGS, { PATH: '/usr/bin' });
      expect(line, what).toEqual({ command: join(bin, 'agentd'), args: ARGS, env: { PATH: `${PATH_FIRST}/usr/bin` }, snapshot: false });
    });
  });

  it('runs the CommonJS entry with this Node where there is no launcher (a bin not installed by npm)', () => {
    const bare = join(scratch, 'bare');
    mkdirSync(bare);
    const env = { PATH: '/usr/bin' };
    expect(serveCommandLine(bare, ARGS, env)).toEqual({ command: process.execPath, args: [join(bare, 'agentd.cjs'), ...ARGS], env, snapshot: false });
  });
});
