import { describe, expect, it } from 'vitest';
import type { SandboxMounts } from '../../../src/tools/sandbox/resolve-sandbox-mounts.js';
import { wrapCommand } from '../../../src/tools/sandbox/wrap-command.js';

describe('wrapCommand', () => {
  const mounts: SandboxMounts = {
    systemHidden: ['/run'],
    reveal: ['/run/systemd/resolve/stub-resolv.conf'],
    roots: [
      { dir: '/home/u', writable: true },
      { dir: '/home/u/shared', writable: true },
    ],
    pinned: ['/home/u/code', '/home/u/code/p'],
    protected: [
      { path: '/home/u/.git', exists: true },
      { path: '/home/u/.agentd', exists: false },
      { path: '/home/u/code/p/.agentd', exists: true },
    ],
    hidden: [
      { path: '/home/u/.ssh', kind: 'dir' },
      { path: '/home/u/.netrc', kind: 'file' },
    ],
    readOnly: ['/home/u/.local/share/agentd/tool-output/s1'],
  };
  const options = { argv: ['bash', '-c', 'npm test'], cwd: '/home/u', mounts, allowNetwork: false };

  it('runs the program directly without a sandbox', () => {
    expect(wrapCommand('none', options)).toEqual({ file: 'bash', args: ['-c', 'npm test'] });
  });

  it('builds the bubblewrap argv in policy order: system, sockets, roots, pinned paths to trusted projects, protected, hidden, read-only', () => {
    expect(wrapCommand('bubblewrap', options)).toEqual({
      file: 'bwrap',
      args: [
        '--ro-bind', '/', '/',
        '--dev', '/dev',
        '--proc', '/proc',
        '--tmpfs', '/tmp',
        '--tmpfs', '/run',
        '--ro-bind', '/run/systemd/resolve/stub-resolv.conf', '/run/systemd/resolve/stub-resolv.conf',
        '--bind', '/home/u', '/home/u',
        '--bind', '/home/u/shared', '/home/u/shared',
        '--bind', '/home/u/code', '/home/u/code',
        '--bind', '/home/u/code/p', '/home/u/code/p',
        '--ro-bind', '/home/u/.git', '/home/u/.git',
        '--tmpfs', '/home/u/.agentd', '--remount-ro', '/home/u/.agentd',
        '--ro-bind', '/home/u/code/p/.agentd', '/home/u/code/p/.agentd',
        '--tmpfs', '/home/u/.ssh',
        '--ro-bind', '/dev/null', '/home/u/.netrc',
        '--ro-bind', '/home/u/.local/share/agentd/tool-output/s1', '/home/u/.local/share/agentd/tool-output/s1',
        '--remount-ro', '/home/u/.ssh',
        '--unshare-pid', '--die-with-parent', '--cap-drop', 'ALL',
        '--unshare-net',
        '--chdir', '/home/u',
        '--', 'bash', '-c', 'npm test',
      ],
    });
  });

  it('keeps the network when allowed and binds read-only roots with --ro-bind', () => {
    const { args } = wrapCommand('bubblewrap', {
      ...options,
      mounts: { ...mounts, roots: [{ dir: '/w', writable: false }] },
      allowNetwork: true,
    });
    expect(args).not.toContain('--unshare-net');
    expect(args.join(' ')).toContain('--ro-bind /w /w');
    expect(args).not.toContain('--new-session');
  });
});
