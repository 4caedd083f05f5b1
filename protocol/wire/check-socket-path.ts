import { lstatSync, readlinkSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** A Unix socket path another user could have planted or could replace; nothing was connected or served. */
export class UnsafeSocketPathError extends Error {
  override name = 'UnsafeSocketPathError';

  constructor(
    /** What is wrong: the path, its folder, owner and mode. */
    readonly problem: string,
    /** How to fix it. */
    readonly fix: string,
  ) {
    super(`${problem}; ${fix}`);
  }
}

export interface CheckSocketPathOptions {
  /** What the caller is about to do, for the message. */
  action: 'connect to' | 'listen on';
  /** The user who must own the folder and the socket: this process's (the default), or another in tests. */
  uid?: number;
}

/**
 * Refuses a socket path another local user controls, before anything connects to it or
 * listens on it: its folder must be a real folder (not a symlink) owned by `uid` and not
 * writable by group or others, and the socket, when there, must not be a symlink and
 * must belong to `uid`. The folder is checked first: once nobody else can write there,
 * nobody else can swap the socket between this check and the connect. Node has no
 * SO_PEERCRED to ask the listening process who it is, so owner and mode are the check.
 * An absent folder or socket passes (there is nothing to connect to; `serve` creates the
 * folder 0700 and checks again). Where there are no uids (Windows) nothing is checked.
 */
export function checkSocketPath(socketPath: string, options: CheckSocketPathOptions): void {
  const uid = options.uid ?? process.getuid?.();
  if (uid === undefined) return;
  const path = resolve(socketPath);
  const folder = dirname(path);
  const refuse = (problem: string, fix: string): never => {
    throw new UnsafeSocketPathError(`agentd will not ${options.action} ${path}: ${problem}, so another user could have put a socket there or could replace it`, fix);
  };
  const elsewhere = `set AGENTD_HOME to a folder of your own, or XDG_RUNTIME_DIR to your private runtime folder (normally /run/user/${uid}), or pass --socket with a path in a folder only you can write`;
  const folderStats = lstatOrUndefined(folder);
  if (!folderStats) return;
  if (folderStats.isSymbolicLink()) refuse(`its folder ${folder} is a symbolic link (to ${readlinkSync(folder)})`, `use the real folder's path instead, or ${elsewhere}`);
  if (!folderStats.isDirectory()) refuse(`${folder} is not a folder`, elsewhere);
  if (folderStats.uid !== uid) refuse(`its folder ${folder} belongs to uid ${folderStats.uid}, not to you (uid ${uid}), mode ${mode(folderStats)}`, elsewhere);
  if ((folderStats.mode & 0o022) !== 0) {
    refuse(`its folder ${folder} (yours, mode ${mode(folderStats)}) is writable by ${writers(folderStats)}`, `run chmod 700 ${folder}, or ${elsewhere}`);
  }
  const socketStats = lstatOrUndefined(path);
  if (!socketStats) return;
  if (socketStats.isSymbolicLink()) refuse(`${path} is a symbolic link, not a socket (to ${readlinkSync(path)})`, `remove the link, or ${elsewhere}`);
  if (socketStats.uid !== uid) refuse(`${path} belongs to uid ${socketStats.uid}, not to you (uid ${uid})`, `remove it if it is stale, or ${elsewhere}`);
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function mode(stats: Stats): string {
  return `0${(stats.mode & 0o7777).toString(8)}`;
}

function writers(stats: Stats): string {
  const group = (stats.mode & 0o020) !== 0;
  const others = (stats.mode & 0o002) !== 0;
  return group && others ? 'its group and everyone' : group ? 'its group' : 'everyone';
}
