import os from 'node:os';
import path from 'node:path';
import envPaths from 'env-paths';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';

// Without XDG variables, macOS and Windows use their own folders (from env-paths).
const onXdgPlatform = process.platform !== 'darwin' && process.platform !== 'win32';
const savedHome = process.env.AGENTD_HOME;
afterEach(() => {
  if (savedHome === undefined) delete process.env.AGENTD_HOME;
  else process.env.AGENTD_HOME = savedHome;
});

describe('resolveAgentdPaths', () => {
  it('puts everything under AGENTD_HOME, ignoring XDG variables', () => {
    const paths = resolveAgentdPaths({
      AGENTD_HOME: '/srv/agentd',
      XDG_CONFIG_HOME: '/x/config',
      XDG_RUNTIME_DIR: '/run/user/1000',
      HOME: '/home/me',
    });
    expect(paths).toEqual({
      configDir: '/srv/agentd/config',
      dataDir: '/srv/agentd/data',
      stateDir: '/srv/agentd/state',
      runtimeDir: '/srv/agentd/run',
      configFile: '/srv/agentd/config/config.json',
      databaseFile: '/srv/agentd/data/agentd.db',
      tokenFile: '/srv/agentd/state/token',
      socketPath: '/srv/agentd/run/agentd.sock',
      logDir: '/srv/agentd/state/logs',
    });
  });

  it('resolves a relative AGENTD_HOME against the working directory', () => {
    expect(resolveAgentdPaths({ AGENTD_HOME: 'rel/home' }).dataDir).toBe(path.resolve('rel/home', 'data'));
  });

  it('uses the XDG variables and XDG_RUNTIME_DIR when set', () => {
    const paths = resolveAgentdPaths({
      HOME: '/home/me',
      XDG_CONFIG_HOME: '/cfg',
      XDG_DATA_HOME: '/data',
      XDG_STATE_HOME: '/state',
      XDG_RUNTIME_DIR: '/run/user/1000',
    });
    expect(paths).toEqual({
      configDir: '/cfg/agentd',
      dataDir: '/data/agentd',
      stateDir: '/state/agentd',
      runtimeDir: '/run/user/1000/agentd',
      configFile: '/cfg/agentd/config.json',
      databaseFile: '/data/agentd/agentd.db',
      tokenFile: '/state/agentd/token',
      socketPath: '/run/user/1000/agentd/agentd.sock',
      logDir: '/state/agentd/logs',
    });
  });

  it('falls back to the XDG defaults under HOME, and the runtime dir under state', () => {
    const paths = resolveAgentdPaths({ HOME: '/home/me', XDG_DATA_HOME: 'relative/is/ignored', XDG_CONFIG_HOME: '' });
    if (!onXdgPlatform) {
      expect(paths.configDir).toBe(envPaths('agentd', { suffix: '' }).config);
      return;
    }
    expect(paths).toMatchObject({
      configDir: '/home/me/.config/agentd',
      dataDir: '/home/me/.local/share/agentd',
      stateDir: '/home/me/.local/state/agentd',
      runtimeDir: '/home/me/.local/state/agentd/run',
      socketPath: '/home/me/.local/state/agentd/run/agentd.sock',
    });
  });

  it('uses the OS home directory when HOME is absent', () => {
    const expected = onXdgPlatform
      ? path.join(os.homedir(), '.config', 'agentd')
      : envPaths('agentd', { suffix: '' }).config;
    expect(resolveAgentdPaths({}).configDir).toBe(expected);
  });

  it('reads process.env when no env is passed', () => {
    process.env.AGENTD_HOME = '/from/process/env';
    expect(resolveAgentdPaths().configFile).toBe('/from/process/env/config/config.json');
  });
});
