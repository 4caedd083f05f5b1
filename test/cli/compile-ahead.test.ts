import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script, plain JavaScript
import { appendCompileAhead } from '../../scripts/compile-ahead.mjs';
// @ts-expect-error: a build script, plain JavaScript
import { firstRunAfterStart, trainServeSnapshot } from '../../scripts/train-serve-snapshot.mjs';

/**
 * A bundle of three functions, one never run by the start: the start-up snapshot is built
 * from it with the compile-ahead code appended, and V8's function log of a start from that
 * snapshot says which functions were compiled on their first call.
 */
const BUNDLE = `'use strict';
function hot(a) { return a + 1; }
function cold(a) { return a - 1; }
class Service { run(a) { return hot(a) * 2; } get label() { return 'service'; } }
require('node:v8').startupSnapshot.setDeserializeMainFunction(() => {
  const up = require('node:path').relative('/a/b', '/a');
  process.stdout.write(String(new Service().run(1)) + new Service().label + (up === '..' ? '' : '!') + (process.env.CALL_COLD ? cold(1) : '') + '\\n');
});
`;

describe('compiling ahead the functions a start runs, while its snapshot is built', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A bin folder holding the bundle as chunks/serve-snapshot.cjs; its V8 log file, shared by build and start (it is part of the flags a snapshot must match). */
  function binFolder(): { bundle: string; log: string; flags: string[]; hotList: string } {
    const bin = mkdtempSync(join(tmpdir(), 'agentd-compile-ahead-'));
    made.push(bin);
    mkdirSync(join(bin, 'chunks'));
    const bundle = join(bin, 'chunks', 'serve-snapshot.cjs');
    writeFileSync(bundle, BUNDLE);
    const log = join(bin, 'functions.log');
    return { bundle, log, flags: ['--log-function-events', `--logfile=${log}`, '--no-logfile-per-isolate'], hotList: join(bin, 'serve-snapshot.hot.json') };
  }

  /** Names of the functions the log says were compiled on a call (`interpreter`): the bundle's, and Node's own. */
  function functionEvents(log: string, bundle: string): { compiled: string[]; builtinsCompiled: string[]; run: Map<string, number> } {
    const scripts = new Map<string, string>();
    const compiled: string[] = [];
    const builtinsCompiled: string[] = [];
    const run = new Map<string, number>();
    for (const line of readFileSync(log, 'utf8').split('\n')) {
      const fields = line.split(',');
      if (fields[0] === 'script-details') scripts.set(fields[1]!, fields[2]!);
      if (fields[0] !== 'function') continue;
      const script = scripts.get(fields[2]!);
      if (fields[1] === 'interpreter' && script === bundle) compiled.push(fields[7]!);
      if (fields[1] === 'interpreter' && script?.startsWith('node:')) builtinsCompiled.push(fields[7]!);
      if (fields[1] === 'first-execution' && script === bundle) run.set(fields[7]!, Number(fields[3]));
    }
    return { compiled, builtinsCompiled, run };
  }

  function buildAndStart(folder: ReturnType<typeof binFolder>, env: NodeJS.ProcessEnv = {}): { built: ReturnType<typeof spawnSync>; started?: ReturnType<typeof spawnSync> } {
    const blob = join(folder.bundle, '..', '..', 'snapshot.blob');
    const built = spawnSync(process.execPath, [...folder.flags, '--snapshot-blob', blob, '--build-snapshot', folder.bundle], { encoding: 'utf8' });
    if (built.status !== 0) return { built };
    const started = spawnSync(process.execPath, [...folder.flags, '--snapshot-blob', blob, folder.bundle], { encoding: 'utf8', env: { ...process.env, ...env } });
    return { built, started };
  }

  it('a start from the snapshot runs the listed functions without compiling them, and compiles the others on their first call', () => {
    const folder = binFolder();
    // What a start runs, as the training finds it in V8's log of a run of the bundle.
    const training = spawnSync(process.execPath, [...folder.flags, '-r', join(process.cwd(), 'scripts', 'snapshot-training-main.cjs'), folder.bundle], { encoding: 'utf8' });
    expect(training.stdout).toBe('4service\n');
    const hot = firstRunAfterStart(readFileSync(folder.log, 'utf8'), folder.bundle) as { bundle: number[]; builtins: number[] };
    const { run } = functionEvents(folder.log, folder.bundle);
    expect(hot.bundle).toEqual(expect.arrayContaining(['run', 'get label', 'hot'].map((name) => run.get(name))));
    expect(hot.bundle).not.toContain(BUNDLE.indexOf('(a) { return a - 1'));
    writeFileSync(folder.hotList, JSON.stringify(hot));
    appendCompileAhead(folder.bundle, hot.bundle);

    const { built, started } = buildAndStart(folder, { CALL_COLD: '1' });
    expect(built.status, String(built.stderr)).toBe(0);
    expect(started!.stdout).toBe('4service0\n');
    const { compiled, builtinsCompiled } = functionEvents(folder.log, folder.bundle);
    expect(compiled).toContain('cold');
    expect(compiled.filter((name) => ['hot', 'run', 'get label'].includes(name))).toEqual([]);
    // Node's own functions too, found among what its loaded modules export.
    expect(builtinsCompiled).not.toContain('relative');
  });

  it('without the compile-ahead code the same start compiles them on their first call (what the test above would see if it did nothing)', () => {
    const folder = binFolder();
    const { built, started } = buildAndStart(folder);
    expect(built.status, String(built.stderr)).toBe(0);
    expect(started!.stdout).toBe('4service\n');
    const { compiled, builtinsCompiled } = functionEvents(folder.log, folder.bundle);
    expect(compiled).toEqual(expect.arrayContaining(['hot', 'run', 'get label']));
    expect(builtinsCompiled).toContain('relative');
  });

  it('refuses a list made from another bundle, whose offsets name none of its functions: the snapshot is not built', () => {
    const folder = binFolder();
    const elsewhere = [3, 5, 7, 11];
    writeFileSync(folder.hotList, JSON.stringify({ bundle: elsewhere, builtins: [] }));
    appendCompileAhead(folder.bundle, elsewhere);
    const { built } = buildAndStart(folder);
    expect(built.status).not.toBe(0);
    expect(built.stderr).toMatch(/compiled ahead 0 of the 4 functions serve-snapshot\.hot\.json lists: it was made from another bundle/);
  });

  it('builds the snapshot as before when there is no list', () => {
    const folder = binFolder();
    appendCompileAhead(folder.bundle, []);
    const { built, started } = buildAndStart(folder);
    expect(built.status, String(built.stderr)).toBe(0);
    expect(started!.stdout).toBe('4service\n');
  });

  it("trains the serve bundle in an environment of its own: a builder's AGENTD_STORE_URL is not the run's store", async () => {
    const bin = mkdtempSync(join(process.cwd(), 'dist', 'training-test-'));
    made.push(bin);
    cpSync(join(process.cwd(), 'dist', 'bin'), bin, { recursive: true, filter: (path) => !path.endsWith('.map') && !path.endsWith('.blob') });
    const saved = process.env.AGENTD_STORE_URL;
    // A database nobody serves: a run that took this variable would fail to open its store.
    process.env.AGENTD_STORE_URL = 'postgres://agentd@127.0.0.1:9/nowhere';
    try {
      const hot = (await trainServeSnapshot(process.cwd(), bin)) as { bundle: number[]; builtins: number[] };
      expect(hot.bundle.length).toBeGreaterThan(200);
      expect(JSON.parse(readFileSync(join(bin, 'serve-snapshot.hot.json'), 'utf8'))).toEqual(hot);
    } finally {
      if (saved === undefined) delete process.env.AGENTD_STORE_URL;
      else process.env.AGENTD_STORE_URL = saved;
    }
  });

  it('names why when the training run fails, so that the build says it compiles nothing ahead', async () => {
    const bin = mkdtempSync(join(process.cwd(), 'dist', 'training-test-'));
    made.push(bin);
    cpSync(join(process.cwd(), 'dist', 'bin'), bin, { recursive: true, filter: (path) => !path.endsWith('.map') && !path.endsWith('.blob') });
    // A bundle that stops before it answers anything.
    writeFileSync(join(bin, 'chunks', 'serve-snapshot.cjs'), "process.stderr.write('agentd: broken on purpose\\n'); process.exit(3);\n");
    await expect(trainServeSnapshot(process.cwd(), bin)).rejects.toThrow(/the training run of serve exited with 3: agentd: broken on purpose/);
  });
});
