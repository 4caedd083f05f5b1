import os from 'node:os';
import path from 'node:path';
import type { AgentdPaths } from '../../config/agentd-paths.js';

/** Why a path is hidden from sandboxed processes; `agentd doctor` groups them by it. */
export type HiddenReason = 'agentd' | 'runtime' | 'socket' | 'credential' | 'denyRead';

/** One path nothing inside the sandbox may see. */
export interface HiddenPath {
  /** Absolute path as configured (symlinks are resolved when the sandbox is built). */
  path: string;
  reason: HiddenReason;
  /**
   * `system`: a directory of host sockets (/run), hidden before the workspace is bound, so
   * a workspace below it (/run/media/…) stays usable. `strict`: hidden after every bind, so
   * it stays hidden inside a workspace, and a workspace inside it is refused.
   */
  layer: 'system' | 'strict';
}

/**
 * Credential files and folders in the home directory, hidden by default: cloud and
 * container logins, package-registry and git tokens, ssh and gpg keys, password stores,
 * browser profiles (session cookies) and shell histories (pasted tokens). Gathered from
 * the tools' own documentation of where they keep credentials.
 */
export const DEFAULT_CREDENTIAL_PATHS: readonly string[] = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.kube',
  '.docker',
  '.config/containers/auth.json',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pypirc',
  '.netrc',
  '.pgpass',
  '.my.cnf',
  '.git-credentials',
  '.config/git/credentials',
  '.config/gh',
  '.config/hub',
  '.config/glab-cli',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.terraform.d/credentials.tfrc.json',
  '.vault-token',
  '.password-store',
  '.local/share/keyrings',
  '.config/op',
  '.config/rclone',
  '.config/google-chrome',
  '.config/chromium',
  '.mozilla',
  '.bash_history',
  '.zsh_history',
];

/** Host directories full of sockets (docker.sock, dbus, systemd, ssh-agent of other tools). */
export const SYSTEM_SOCKET_DIRS: readonly string[] = ['/run', '/var/run'];

/** Where the hidden set comes from; every part injectable so tests use temporary dirs. */
export interface HiddenPathsInput {
  /** agentd's own directories and files. */
  paths: AgentdPaths;
  /** The daemon's environment: HOME, XDG_RUNTIME_DIR, SSH_AUTH_SOCK. */
  env: NodeJS.ProcessEnv;
  /** `--config FILE`, when the config lives outside the config directory. */
  configFile?: string;
  /** The Unix socket the daemon serves, when `serve --socket PATH` put it elsewhere. */
  socketPath?: string;
  /** `sandbox.denyRead` from config: absolute, or `~/…` for the home directory. */
  denyRead?: readonly string[];
  /** Credential paths relative to home; DEFAULT_CREDENTIAL_PATHS when absent. */
  credentialPaths?: readonly string[];
  /** Socket directories; SYSTEM_SOCKET_DIRS when absent. */
  socketDirs?: readonly string[];
}

/**
 * Everything the sandbox hides: agentd's config, data, state and runtime directories and
 * the files in them (token, database, socket, config with `apiKey`), $XDG_RUNTIME_DIR,
 * the ssh-agent socket, host socket directories, credential files and `sandbox.denyRead`.
 * Paths may not exist; the sandbox skips those when it is built.
 */
export function sandboxHiddenPaths(input: HiddenPathsInput): HiddenPath[] {
  const home = homeOf(input.env);
  const { paths } = input;
  const strict = (reason: HiddenReason, p: string): HiddenPath => ({ path: path.resolve(p), reason, layer: 'strict' });
  const list: HiddenPath[] = [
    ...[paths.configDir, paths.dataDir, paths.stateDir, paths.runtimeDir, paths.configFile, paths.databaseFile, paths.tokenFile, paths.socketPath].map((p) =>
      strict('agentd', p),
    ),
  ];
  if (input.configFile !== undefined) list.push(strict('agentd', input.configFile));
  if (input.socketPath !== undefined) list.push(strict('agentd', input.socketPath));
  const runtime = input.env.XDG_RUNTIME_DIR;
  if (runtime && path.isAbsolute(runtime)) list.push(strict('runtime', runtime));
  const agentSocket = input.env.SSH_AUTH_SOCK;
  if (agentSocket && path.isAbsolute(agentSocket)) list.push(strict('socket', agentSocket));
  for (const dir of input.socketDirs ?? SYSTEM_SOCKET_DIRS) list.push({ path: dir, reason: 'socket', layer: 'system' });
  for (const rel of input.credentialPaths ?? DEFAULT_CREDENTIAL_PATHS) list.push(strict('credential', path.join(home, rel)));
  for (const entry of input.denyRead ?? []) list.push(strict('denyRead', expandHomeIn(entry, home)));
  return list;
}

/** `~` and `~/…` against `home`; other paths unchanged. */
export function expandHomeIn(entry: string, home: string): string {
  return entry === '~' || entry.startsWith('~/') ? path.join(home, entry.slice(1)) : entry;
}

function homeOf(env: NodeJS.ProcessEnv): string {
  const home = env.HOME;
  return home !== undefined && path.isAbsolute(home) ? home : os.homedir();
}
