import { describe, expect, it } from 'vitest';
import { wrapCommand } from '../../../src/tools/sandbox/wrap-command.js';

describe('wrapCommand', () => {
  const options = {
    command: 'npm test',
    cwd: '/home/u/project',
    writableDirs: ['/home/u/shared'],
    readOnlyDirs: ['/home/u/.local/share/agentd/tool-output'],
    allowNetwork: false,
  };

  it('runs plain bash without a sandbox', () => {
    expect(wrapCommand('none', options)).toEqual({ file: 'bash', args: ['-c', 'npm test'] });
  });

  it('builds the bubblewrap argv: read-only root, private /tmp, writable workspace, no network', () => {
    expect(wrapCommand('bubblewrap', options)).toEqual({
      file: 'bwrap',
      args: [
        '--ro-bind', '/', '/',
        '--dev', '/dev',
        '--proc', '/proc',
        '--tmpfs', '/tmp',
        '--bind', '/home/u/project', '/home/u/project',
        '--bind', '/home/u/shared', '/home/u/shared',
        '--ro-bind', '/home/u/.local/share/agentd/tool-output', '/home/u/.local/share/agentd/tool-output',
        '--unshare-pid', '--die-with-parent', '--cap-drop', 'ALL',
        '--unshare-net',
        '--chdir', '/home/u/project',
        '--', 'bash', '-c', 'npm test',
      ],
    });
  });

  it('keeps the network when allowed and mounts parents before children', () => {
    const { args } = wrapCommand('bubblewrap', {
      ...options,
      cwd: '/w/a/b',
      writableDirs: ['/w'],
      readOnlyDirs: [],
      allowNetwork: true,
    });
    expect(args).not.toContain('--unshare-net');
    expect(args.indexOf('/w')).toBeLessThan(args.indexOf('/w/a/b'));
    expect(args).not.toContain('--new-session');
  });
});
