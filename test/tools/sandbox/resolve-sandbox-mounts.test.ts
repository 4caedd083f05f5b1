import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSandboxMounts } from '../../../src/tools/sandbox/resolve-sandbox-mounts.js';
import { makeTempDir, type TempDir } from '../tool-test-context.js';

describe('resolveSandboxMounts: trusted projects inside a writable root', () => {
  let ws: TempDir;
  beforeEach(() => {
    ws = makeTempDir('agentd-mounts-');
  });
  afterEach(() => ws.cleanup());

  const mounts = (trustedProjects: string[], writable = true) =>
    resolveSandboxMounts({ hidden: [], roots: [{ dir: ws.dir, writable }], trustedProjects, resolvConf: '/nonexistent' });
  const at = (...parts: string[]): string => path.join(ws.dir, ...parts);

  it('pins every folder down to the project and protects its .agentd (bound when present, an empty mount when absent)', () => {
    fs.mkdirSync(at('code', 'p', '.agentd'), { recursive: true });
    fs.mkdirSync(at('code', 'q'), { recursive: true });
    const m = mounts([at('code', 'p'), at('code', 'q')]);
    expect(m.pinned).toEqual([at('code'), at('code', 'p'), at('code', 'q')]);
    expect(m.protected).toEqual([
      { path: at('.git'), exists: false },
      { path: at('.agentd'), exists: false },
      { path: at('code', 'p', '.agentd'), exists: true },
      { path: at('code', 'q', '.agentd'), exists: false },
    ]);
  });

  it('stops at the first missing folder of a project that does not exist yet, making it an empty mount', () => {
    fs.mkdirSync(at('code'));
    const m = mounts([at('code', 'later', 'p')]);
    expect(m.pinned).toEqual([at('code')]);
    expect(m.protected.at(-1)).toEqual({ path: at('code', 'later'), exists: false });
  });

  it('leaves alone projects outside every writable root, the root itself, and read-only roots', () => {
    fs.mkdirSync(at('p'));
    expect(mounts(['/usr', ws.dir]).pinned).toEqual([]);
    expect(mounts([at('p')], false)).toMatchObject({ pinned: [], protected: [] });
  });

  it('refuses a trusted project whose .agentd is a dangling symlink, naming it and the fix', () => {
    fs.mkdirSync(at('p'));
    fs.symlinkSync(at('gone'), at('p', '.agentd'));
    expect(() => mounts([at('p')])).toThrow(`${at('p', '.agentd')} is a symbolic link to a missing target`);
  });
});
