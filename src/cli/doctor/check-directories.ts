import { accessSync, constants, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { AgentdPaths } from '../../config/agentd-paths.js';
import { failCheck, okCheck, warnCheck, type DoctorCheck } from './doctor-check.js';

/** One of agentd's directories and what it must be like. */
interface DirectorySpec {
  key: 'config' | 'data' | 'state' | 'runtime';
  dir: string;
  /** Holds sessions, the token or the socket: no access for group and others (0700, as agentd creates it). */
  private: boolean;
}

/**
 * Checks the config, data, state and runtime directories: each is a directory agentd can
 * write to, or can be created; the private ones (sessions, token, socket) are closed to
 * other users; none is writable by others (a planted config or socket would be obeyed).
 */
export function checkDirectories(paths: AgentdPaths): DoctorCheck[] {
  const specs: DirectorySpec[] = [
    { key: 'config', dir: paths.configDir, private: false },
    { key: 'data', dir: paths.dataDir, private: true },
    { key: 'state', dir: paths.stateDir, private: true },
    { key: 'runtime', dir: paths.runtimeDir, private: true },
  ];
  return specs.map(checkDirectory);
}

function checkDirectory(spec: DirectorySpec): DoctorCheck {
  const id = `dir:${spec.key}`;
  const title = `${spec.key} dir`;
  const info = statOrUndefined(spec.dir);
  if (info === undefined) return checkCreatable(id, title, spec.dir);
  if (!info.isDirectory()) {
    return failCheck(id, title, `${spec.dir} exists but is not a directory`, `move ${spec.dir} aside (agentd creates the directory), or set AGENTD_HOME to another folder`);
  }
  if (!canWrite(spec.dir)) {
    return failCheck(id, title, `${spec.dir} is not writable by this user`, `chown -R "$(id -u)" ${spec.dir} (it may have been created by another user, e.g. with sudo)`);
  }
  const mode = info.mode & 0o777;
  const octal = mode.toString(8).padStart(3, '0');
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) {
    return warnCheck(id, title, `${spec.dir} is owned by uid ${info.uid}, not by this user (uid ${uid})`, `chown -R "$(id -u)" ${spec.dir}`);
  }
  if ((mode & 0o022) !== 0) {
    return warnCheck(id, title, `${spec.dir} is writable by other users (mode ${octal})`, `chmod go-w ${spec.dir}`);
  }
  if (spec.private && (mode & 0o077) !== 0) {
    return warnCheck(id, title, `${spec.dir} is open to other users (mode ${octal}); it holds ${holds(spec.key)}`, `chmod 700 ${spec.dir}`);
  }
  return okCheck(id, title, `${spec.dir} (mode ${octal})`);
}

/** A missing directory is fine when agentd can create it: its nearest existing ancestor is a writable directory. */
function checkCreatable(id: string, title: string, dir: string): DoctorCheck {
  let ancestor = path.dirname(dir);
  let info = statOrUndefined(ancestor);
  while (info === undefined && path.dirname(ancestor) !== ancestor) {
    ancestor = path.dirname(ancestor);
    info = statOrUndefined(ancestor);
  }
  if (info === undefined || !info.isDirectory()) {
    return failCheck(id, title, `${dir} cannot be created: ${ancestor} is not a directory`, `move ${ancestor} aside, or set AGENTD_HOME to a folder you own`);
  }
  if (!canWrite(ancestor)) {
    return failCheck(id, title, `${dir} cannot be created: ${ancestor} is not writable by this user`, `create it yourself (mkdir -p -m 700 ${dir}), or set AGENTD_HOME to a folder you own`);
  }
  return okCheck(id, title, `${dir} (not created yet; agentd creates it when first needed)`);
}

function holds(key: DirectorySpec['key']): string {
  if (key === 'data') return 'your sessions';
  if (key === 'state') return 'the TCP token and logs';
  return 'the daemon socket';
}

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

function canWrite(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
