import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeHome } from '../support/daemon-process.js';
import { serveThrough } from '../support/serve-through-bin.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(join(DIST, '../package.json'), 'utf8')) as { bin: { agentd: string } };
/** The `agentd` bin as npm links it: the launcher. */
const BIN = join(DIST, '..', PACKAGE.bin.agentd);

describe('`agentd serve` from the start-up snapshot, and without it', () => {
  let home: ReturnType<typeof makeHome>;
  let scratch: string;
  beforeEach(() => {
    home = makeHome();
    scratch = mkdtempSync(join(DIST, 'snapshot-test-'));
  });
  afterEach(() => {
    home.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** A copy of dist/bin (inside dist/, so that its chunks find node_modules), whose snapshot key is true for the copy. */
  function copyOfTheBin(): string {
    const bin = join(scratch, 'bin');
    cpSync(join(DIST, 'bin'), bin, { recursive: true, filter: (path) => !path.endsWith('.map') });
    const key = execFileSync('sh', [join(bin, 'agentd')], {
      env: { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, AGENTD_PRINT_SNAPSHOT_KEY: '1' },
      encoding: 'utf8',
    });
    writeFileSync(join(bin, 'serve-snapshot.key'), key);
    return bin;
  }

  it('starts from the snapshot the build made for this Node, and serves a session from it', async () => {
    const { commandLine, stderr, sessionId } = await serveThrough(BIN, home.home, scratch);
    expect(commandLine).toContain(`--snapshot-blob ${join(DIST, 'bin', 'serve-snapshot.blob')}`);
    expect(stderr).not.toContain('start-up snapshot');
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('falls back without an error when the snapshot was built for another Node: one log line says so', async () => {
    const bin = copyOfTheBin();
    const key = join(bin, 'serve-snapshot.key');
    writeFileSync(key, readFileSync(key, 'utf8').replace(/^\S+ \S+ /, '1 2 '));
    const { commandLine, stderr, sessionId } = await serveThrough(join(bin, 'agentd'), home.home, scratch);
    expect(commandLine).not.toContain('--snapshot-blob');
    expect(commandLine).toContain(join(bin, 'agentd.cjs'));
    expect(stderr).toBe(`agentd: started without the start-up snapshot: ${join(bin, 'serve-snapshot.blob')} was built for another Node or install\n`);
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('does not pass a blob replaced after the build (another one, or a damaged one, which would crash node), however alike its size', async () => {
    const bin = copyOfTheBin();
    const blob = join(bin, 'serve-snapshot.blob');
    writeFileSync(`${blob}.other`, Buffer.alloc(statSync(blob).size, 0x41));
    renameSync(`${blob}.other`, blob);
    const { commandLine, stderr } = await serveThrough(join(bin, 'agentd'), home.home, scratch);
    expect(commandLine).not.toContain('--snapshot-blob');
    expect(stderr).toContain('was built for another Node or install');
  });

  it('starts from the snapshot when reached through the link npm makes, whose path holds `..`', async () => {
    const link = join(scratch, 'agentd-linked');
    symlinkSync(join('..', 'bin', 'agentd'), link);
    const { commandLine, stderr } = await serveThrough(link, home.home, scratch);
    // The launcher passes the path as it reached its folder, through the link.
    expect(commandLine).toContain(`--snapshot-blob ${scratch}/../bin/serve-snapshot.blob`);
    expect(stderr).not.toContain('start-up snapshot');
  });

  it('falls back when the node first on PATH is another than the one the snapshot was built with, and runs that one', async () => {
    // Another Node: a copy of this one's binary (another inode), first on PATH.
    const otherNode = join(scratch, 'other-node');
    mkdirSync(otherNode);
    copyFileSync(process.execPath, join(otherNode, 'node'));
    chmodSync(join(otherNode, 'node'), 0o755);
    const { commandLine, stderr, sessionId } = await serveThrough(BIN, home.home, scratch, otherNode);
    expect(commandLine).not.toContain('--snapshot-blob');
    expect(stderr).toContain('was built for another Node or install');
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('falls back when the blob is missing, cannot be opened, or has no key', async () => {
    const missing = copyOfTheBin();
    rmSync(join(missing, 'serve-snapshot.blob'));
    const cases: Array<[string, string]> = [[missing, 'no usable start-up snapshot']];
    const dangling = join(scratch, 'dangling');
    cpSync(missing, dangling, { recursive: true });
    copyFileSync(join(missing, 'serve-snapshot.key'), join(dangling, 'serve-snapshot.key'));
    symlinkSync(join(scratch, 'nowhere.blob'), join(dangling, 'serve-snapshot.blob'));
    cases.push([dangling, 'no usable start-up snapshot']);
    const keyless = join(scratch, 'keyless');
    cpSync(join(DIST, 'bin'), keyless, { recursive: true, filter: (path) => !path.endsWith('.map') && !path.endsWith('serve-snapshot.key') });
    cases.push([keyless, 'no usable start-up snapshot']);
    for (const [bin, reason] of cases) {
      const { commandLine, stderr, sessionId } = await serveThrough(join(bin, 'agentd'), home.home, scratch);
      expect(commandLine, bin).not.toContain('--snapshot-blob');
      expect(stderr, bin).toBe(`agentd: started without the start-up snapshot: ${reason} at ${join(bin, 'serve-snapshot.blob')}\n`);
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('the launcher, reached through a symlink as npm links a bin', () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(DIST, 'snapshot-link-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('finds its own folder through relative and absolute links', () => {
    const relative = join(scratch, 'agentd-relative');
    symlinkSync(join('..', 'bin', 'agentd'), relative);
    const absolute = join(scratch, 'agentd-absolute');
    symlinkSync(relative, absolute);
    const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
    for (const link of [relative, absolute]) {
      const version = execFileSync(link, ['--version'], { env, encoding: 'utf8' });
      expect(version).toBe(`${(JSON.parse(readFileSync(join(DIST, '../package.json'), 'utf8')) as { version: string }).version}\n`);
      expect(execFileSync(link, ['help', 'acp'], { env, encoding: 'utf8' })).toMatch(/^Usage: agentd acp/);
    }
  });
});
