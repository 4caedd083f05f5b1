import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../../src/config/agentd-paths.js';
import { checkDirectories } from '../../../src/cli/doctor/check-directories.js';
import { makeTempHome, type TempHome } from './temp-home.js';

let t: TempHome;
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());

describe('checkDirectories', () => {
  it('is ok for directories not created yet whose parent is writable', () => {
    const checks = checkDirectories(t.paths);
    expect(checks.map((c) => [c.id, c.status])).toEqual([
      ['dir:config', 'ok'],
      ['dir:data', 'ok'],
      ['dir:state', 'ok'],
      ['dir:runtime', 'ok'],
    ]);
    expect(checks[1]?.detail).toBe(`${t.paths.dataDir} (not created yet; agentd creates it when first needed)`);
  });

  it('is ok for private directories and shows their mode', () => {
    for (const dir of [t.paths.configDir, t.paths.dataDir, t.paths.stateDir, t.paths.runtimeDir]) fs.mkdirSync(dir, { mode: 0o700 });
    const checks = checkDirectories(t.paths);
    expect(checks.every((c) => c.status === 'ok')).toBe(true);
    expect(checks[2]?.detail).toBe(`${t.paths.stateDir} (mode 700)`);
  });

  it('warns about a private directory open to others, and any directory others can write', () => {
    fs.mkdirSync(t.paths.dataDir);
    fs.chmodSync(t.paths.dataDir, 0o755);
    fs.mkdirSync(t.paths.configDir);
    fs.chmodSync(t.paths.configDir, 0o777);
    const [config, data] = checkDirectories(t.paths);
    expect(data).toEqual({
      id: 'dir:data',
      title: 'data dir',
      status: 'warn',
      detail: `${t.paths.dataDir} is open to other users (mode 755); it holds your sessions`,
      fix: `chmod 700 ${t.paths.dataDir}`,
    });
    expect(config?.status).toBe('warn');
    expect(config?.fix).toBe(`chmod go-w ${t.paths.configDir}`);
  });

  it('fails a path that is a file, and a directory that cannot be created under a file', () => {
    fs.writeFileSync(t.paths.dataDir, 'not a directory');
    const blocker = path.join(t.home, 'blocker');
    fs.writeFileSync(blocker, '');
    const underFile = resolveAgentdPaths({ AGENTD_HOME: path.join(blocker, 'home') });
    const data = checkDirectories(t.paths)[1];
    expect(data?.status).toBe('fail');
    expect(data?.detail).toBe(`${t.paths.dataDir} exists but is not a directory`);
    const state = checkDirectories(underFile)[2];
    expect(state?.status).toBe('fail');
    expect(state?.detail).toBe(`${underFile.stateDir} cannot be created: ${blocker} is not a directory`);
    expect(state?.fix).toContain('AGENTD_HOME');
  });
});
