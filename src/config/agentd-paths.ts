import os from 'node:os';
import path from 'node:path';
import { platformFolders } from './platform-folders.js';

/** Where agentd keeps everything on disk. All paths are absolute. */
export interface AgentdPaths {
  /** User settings: holds `config.json`. */
  configDir: string;
  /** Data worth backing up: holds the session database. */
  dataDir: string;
  /** State that may be lost (token, logs): XDG_STATE_HOME. */
  stateDir: string;
  /** Per-boot runtime files: the socket. */
  runtimeDir: string;
  /** `<configDir>/config.json`, the user config file. */
  configFile: string;
  /** `<dataDir>/agentd.db`, the SQLite database. */
  databaseFile: string;
  /** `<stateDir>/token`, the secret socket clients present. */
  tokenFile: string;
  /** `<runtimeDir>/agentd.sock`, the daemon's Unix socket. */
  socketPath: string;
  /** `<stateDir>/logs`, the daemon's log files. */
  logDir: string;
}

const APP = 'agentd';

/**
 * Resolves agentd's paths from `env` alone (never from process.env when another env is
 * passed), so tests and child processes can describe their own environment.
 *
 * - `AGENTD_HOME` puts everything under one directory: config, data, state and run.
 * - Otherwise the XDG Base Directory spec
 *   (https://specifications.freedesktop.org/basedir-spec/latest/) on Linux and other
 *   Unixes: $XDG_CONFIG_HOME, $XDG_DATA_HOME, $XDG_STATE_HOME with the defaults
 *   ~/.config, ~/.local/share, ~/.local/state; relative values are ignored as the spec
 *   requires. On macOS and Windows, the platform's conventional folders (platform-folders.ts)
 *   unless XDG variables are set; state lives beside data there, since the platform log
 *   folder is no place for a token.
 * - The runtime dir is $XDG_RUNTIME_DIR/agentd when set (private, cleaned at logout),
 *   else `<stateDir>/run`.
 */
export function resolveAgentdPaths(env: NodeJS.ProcessEnv = process.env): AgentdPaths {
  const home = nonEmpty(env.AGENTD_HOME);
  if (home !== undefined) {
    const root = path.resolve(home);
    return withFiles(path.join(root, 'config'), path.join(root, 'data'), path.join(root, 'state'), path.join(root, 'run'));
  }
  const { configDir, dataDir, stateDir } = baseDirs(env);
  const runtimeRoot = absolute(env.XDG_RUNTIME_DIR);
  const runtimeDir = runtimeRoot !== undefined ? path.join(runtimeRoot, APP) : path.join(stateDir, 'run');
  return withFiles(configDir, dataDir, stateDir, runtimeDir);
}

function baseDirs(env: NodeJS.ProcessEnv): { configDir: string; dataDir: string; stateDir: string } {
  const xdgConfig = absolute(env.XDG_CONFIG_HOME);
  const xdgData = absolute(env.XDG_DATA_HOME);
  const xdgState = absolute(env.XDG_STATE_HOME);
  const usesXdg = xdgConfig !== undefined || xdgData !== undefined || xdgState !== undefined;
  if ((process.platform === 'darwin' || process.platform === 'win32') && !usesXdg) {
    const platform = platformFolders(process.platform, env, os.homedir(), APP);
    return { configDir: platform.config, dataDir: platform.data, stateDir: path.join(platform.data, 'state') };
  }
  const userHome = nonEmpty(env.HOME) ?? os.homedir();
  return {
    configDir: path.join(xdgConfig ?? path.join(userHome, '.config'), APP),
    dataDir: path.join(xdgData ?? path.join(userHome, '.local', 'share'), APP),
    stateDir: path.join(xdgState ?? path.join(userHome, '.local', 'state'), APP),
  };
}

function withFiles(configDir: string, dataDir: string, stateDir: string, runtimeDir: string): AgentdPaths {
  return {
    configDir,
    dataDir,
    stateDir,
    runtimeDir,
    configFile: path.join(configDir, 'config.json'),
    databaseFile: path.join(dataDir, 'agentd.db'),
    tokenFile: path.join(stateDir, 'token'),
    socketPath: path.join(runtimeDir, 'agentd.sock'),
    logDir: path.join(stateDir, 'logs'),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** The XDG spec: "If an implementation encounters a relative path … it should consider the path invalid and ignore it." */
function absolute(value: string | undefined): string | undefined {
  const v = nonEmpty(value);
  return v !== undefined && path.isAbsolute(v) ? v : undefined;
}
