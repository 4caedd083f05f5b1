import type { SandboxInfo } from './detect-sandbox.js';

/** What to confine a command to. All paths absolute and symlink-free (bwrap binds real paths). */
export interface WrapCommandOptions {
  /** The shell command line. */
  command: string;
  /** The workspace: writable, and the command's working directory. */
  cwd: string;
  /** More writable directories (the session's additional directories). */
  writableDirs: string[];
  /** Directories visible read-only even under the private /tmp (the tool-output folder). */
  readOnlyDirs: string[];
  /** Keep the host network; otherwise the command gets an empty network namespace. */
  allowNetwork: boolean;
}

/** A program and its arguments, ready for `spawn`. */
export interface WrappedCommand {
  file: string;
  args: string[];
}

/**
 * Builds the argv that runs `bash -c <command>` under bubblewrap
 * (https://github.com/containers/bubblewrap, bwrap(1)):
 * - `--ro-bind / /`: the whole system readable, nothing writable;
 * - `--dev /dev`, `--proc /proc`: a minimal /dev and a /proc of the new pid namespace;
 * - `--tmpfs /tmp`: a private, empty /tmp, so other users' and the daemon's temp files are out of reach;
 * - `--bind` of cwd and the writable dirs (after /tmp, so a workspace under /tmp is visible);
 * - `--unshare-pid --die-with-parent`: the command cannot see or signal host processes, and
 *   everything it started dies with it (so no background child outlives the call);
 * - `--cap-drop ALL`: no capabilities even when the daemon runs as root;
 * - `--unshare-net` unless network is allowed: only an isolated loopback.
 * `--new-session` is not used: the daemon already spawns the sandbox with `detached: true`,
 * which calls setsid, so there is no controlling terminal to inject into (the TIOCSTI attack
 * --new-session prevents), and keeping one session and process group is what lets a timeout
 * or abort kill the whole tree with one `kill(-pgid)`.
 * Without a sandbox the command runs as plain `bash -c`.
 */
export function wrapCommand(mode: SandboxInfo['mode'], options: WrapCommandOptions): WrappedCommand {
  if (mode === 'none') return { file: 'bash', args: ['-c', options.command] };
  const binds: Array<{ flag: '--bind' | '--ro-bind'; dir: string }> = [
    ...options.readOnlyDirs.map((dir) => ({ flag: '--ro-bind' as const, dir })),
    ...[options.cwd, ...options.writableDirs].map((dir) => ({ flag: '--bind' as const, dir })),
  ];
  // Parents before children, so a later mount never hides an earlier one.
  binds.sort((a, b) => depth(a.dir) - depth(b.dir));
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  for (const { flag, dir } of binds) args.push(flag, dir, dir);
  args.push('--unshare-pid', '--die-with-parent', '--cap-drop', 'ALL');
  if (!options.allowNetwork) args.push('--unshare-net');
  args.push('--chdir', options.cwd, '--', 'bash', '-c', options.command);
  return { file: 'bwrap', args };
}

function depth(dir: string): number {
  return dir.split('/').filter(Boolean).length;
}
