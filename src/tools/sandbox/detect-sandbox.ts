import { spawn } from 'node:child_process';

/** Whether and how bash commands are confined. */
export interface SandboxInfo {
  /** `bubblewrap`: commands run under bwrap; `none`: they would run unconfined. */
  mode: 'bubblewrap' | 'none';
  /** Why there is no sandbox (and how to get one), when mode is `none`. */
  reason?: string;
}

/** The probe: the namespaces and mounts wrap-command uses, around `true`. */
export const SANDBOX_PROBE_ARGS = [
  '--ro-bind', '/', '/',
  '--dev', '/dev',
  '--proc', '/proc',
  '--unshare-pid',
  '--unshare-net',
  '--die-with-parent',
  '--cap-drop', 'ALL',
  'true',
];

const PROBE_TIMEOUT_MS = 5000;

let cached: Promise<SandboxInfo> | undefined;

/**
 * Checks once per process whether bubblewrap can build the sandbox here: installed, and
 * allowed to create namespaces (unprivileged user namespaces may be disabled, or a
 * container may forbid them). The result is cached; `refresh` probes again.
 */
export function detectSandbox(options: { bwrapPath?: string; refresh?: boolean } = {}): Promise<SandboxInfo> {
  if (!cached || options.refresh) cached = probe(options.bwrapPath ?? 'bwrap');
  return cached;
}

function probe(bwrap: string): Promise<SandboxInfo> {
  if (process.platform !== 'linux') {
    return Promise.resolve({ mode: 'none', reason: `bubblewrap needs Linux (this is ${process.platform})` });
  }
  return new Promise((resolve) => {
    const child = spawn(bwrap, SANDBOX_PROBE_ARGS, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({
        mode: 'none',
        reason:
          error.code === 'ENOENT'
            ? 'bubblewrap (bwrap) is not installed; install it with `apt-get install bubblewrap`'
            : `bwrap could not be started: ${error.message}`,
      });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ mode: 'bubblewrap' });
      else {
        const why = stderr.trim() || (signal ? `killed by ${signal}` : `exit status ${code}`);
        resolve({ mode: 'none', reason: `bwrap cannot create a sandbox here (${why}); unprivileged user namespaces may be disabled` });
      }
    });
  });
}

/** One line for `agentd doctor`. */
export function describeSandbox(info: SandboxInfo): string {
  if (info.mode === 'bubblewrap') {
    return (
      'bash sandbox: bubblewrap (read-only system, writable workspace except .git/ and .agentd/, private /tmp, ' +
      "agentd's own files, host sockets and credential files hidden, allowlisted environment, no network unless allowed)"
    );
  }
  return `bash sandbox: none — ${info.reason ?? 'unavailable'}; each command needs explicit permission`;
}
