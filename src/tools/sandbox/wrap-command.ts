import type { SandboxInfo } from './detect-sandbox.js';
import type { SandboxMounts } from './resolve-sandbox-mounts.js';

/** What to confine a command to. All paths absolute and symlink-free (bwrap binds real paths). */
export interface WrapCommandOptions {
  /** The program and its arguments, e.g. `['bash', '-c', 'npm test']`. */
  argv: string[];
  /** The working directory. */
  cwd: string;
  /** What to bind, hide and protect (resolveSandboxMounts). */
  mounts: SandboxMounts;
  /** Keep the host network; otherwise the command gets an empty network namespace. */
  allowNetwork: boolean;
}

/** A program and its arguments, ready for `spawn`. */
export interface WrappedCommand {
  file: string;
  args: string[];
}

/**
 * Builds the bubblewrap argv (https://github.com/containers/bubblewrap, bwrap(1)). Later
 * mounts cover earlier ones, so the order is the policy:
 * 1. `--ro-bind / /`: the system readable, nothing writable; `--dev /dev` and `--proc /proc`:
 *    a minimal /dev and the /proc of the new pid namespace; `--tmpfs /tmp`: a private /tmp;
 * 2. socket directories (/run) emptied, resolv.conf's target put back;
 * 3. the roots (workspace, additional dirs), parents first, so one under /tmp or /run is visible;
 * 4. the paths down to each trusted project inside a writable root bound onto themselves
 *    (a mount point cannot be renamed away), then `.git` and `.agentd` of writable roots and
 *    `.agentd` of those trusted projects read-only (an empty read-only tmpfs when absent,
 *    so a command cannot create one and plant hooks or project config);
 * 5. hidden paths: an empty tmpfs over directories, /dev/null over files, after the roots
 *    so they stay hidden when the workspace contains them (workspace = $HOME);
 * 6. read-only dirs (the session's tool-output folder, inside the hidden data dir), then
 *    the hidden directories' tmpfs made read-only.
 * Then `--unshare-pid --die-with-parent` (no host processes, nothing outlives the call),
 * `--cap-drop ALL`, and `--unshare-net` unless network is allowed (only an isolated
 * loopback: no TCP to host services and no abstract Unix sockets, which are per network
 * namespace). `--new-session` is not used: the daemon spawns the sandbox with
 * `detached: true` (setsid), so there is no terminal to inject into (the TIOCSTI attack),
 * and one process group lets a timeout kill the whole tree with one `kill(-pgid)`.
 * Without a sandbox the program runs directly.
 */
export function wrapCommand(mode: SandboxInfo['mode'], options: WrapCommandOptions): WrappedCommand {
  const [program = 'bash', ...rest] = options.argv;
  if (mode === 'none') return { file: program, args: rest };
  const { mounts } = options;
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  for (const dir of mounts.systemHidden) args.push('--tmpfs', dir);
  for (const file of mounts.reveal) args.push('--ro-bind', file, file);
  for (const { dir, writable } of mounts.roots) args.push(writable ? '--bind' : '--ro-bind', dir, dir);
  for (const dir of mounts.pinned ?? []) args.push('--bind', dir, dir);
  for (const entry of mounts.protected) {
    if (entry.exists) args.push('--ro-bind', entry.path, entry.path);
    else args.push('--tmpfs', entry.path, '--remount-ro', entry.path);
  }
  for (const entry of mounts.hidden) {
    if (entry.kind === 'dir') args.push('--tmpfs', entry.path);
    else args.push('--ro-bind', '/dev/null', entry.path);
  }
  for (const dir of mounts.readOnly) args.push('--ro-bind', dir, dir);
  // Read-only only now: bwrap must first create the read-only dirs' mount points inside them.
  for (const entry of mounts.hidden) if (entry.kind === 'dir') args.push('--remount-ro', entry.path);
  args.push('--unshare-pid', '--die-with-parent', '--cap-drop', 'ALL');
  if (!options.allowNetwork) args.push('--unshare-net');
  args.push('--chdir', options.cwd, '--', program, ...rest);
  return { file: 'bwrap', args };
}
