import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findAgentsFiles, findRepositoryRoot } from '../../src/config/find-agents-files.js';

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-')));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

describe('findAgentsFiles', () => {
  it('lists the global file, then the repository’s from its root down to cwd', async () => {
    const repo = path.join(root, 'outside', 'repo');
    const cwd = path.join(repo, 'packages', 'app', 'src');
    fs.mkdirSync(cwd, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    const config = path.join(root, 'config');
    write(path.join(config, 'AGENTS.md'), 'global\n');
    write(path.join(root, 'outside', 'AGENTS.md'), 'above the repository: not included');
    write(path.join(repo, 'AGENTS.md'), '\uFEFFrepo root');
    write(path.join(repo, 'packages', 'AGENTS.md'), '   \n'); // blank: skipped
    write(path.join(repo, 'packages', 'app', 'AGENTS.md'), 'app rules');
    fs.mkdirSync(path.join(cwd, 'AGENTS.md')); // a directory of that name: skipped

    expect(await findAgentsFiles(cwd, config)).toEqual([
      { path: path.join(config, 'AGENTS.md'), text: 'global' },
      { path: path.join(repo, 'AGENTS.md'), text: 'repo root' },
      { path: path.join(repo, 'packages', 'app', 'AGENTS.md'), text: 'app rules' },
    ]);
  });

  it('finds a worktree-style .git file as the root', async () => {
    const repo = path.join(root, 'wt');
    write(path.join(repo, '.git'), 'gitdir: /elsewhere\n');
    write(path.join(repo, 'AGENTS.md'), 'worktree rules');
    const cwd = path.join(repo, 'sub');
    fs.mkdirSync(cwd);
    expect(await findRepositoryRoot(cwd)).toBe(repo);
    expect(await findAgentsFiles(cwd, path.join(root, 'no-config'))).toEqual([{ path: path.join(repo, 'AGENTS.md'), text: 'worktree rules' }]);
  });

  it('outside a repository reads only cwd’s own file', async () => {
    const cwd = path.join(root, 'plain', 'dir');
    write(path.join(root, 'plain', 'AGENTS.md'), 'parent: not included');
    write(path.join(cwd, 'AGENTS.md'), 'here');
    expect(await findRepositoryRoot(cwd)).toBeUndefined();
    expect(await findAgentsFiles(cwd, path.join(root, 'none'))).toEqual([{ path: path.join(cwd, 'AGENTS.md'), text: 'here' }]);
  });

  it('lists a file once when the config directory is the project itself', async () => {
    write(path.join(root, 'AGENTS.md'), 'one');
    expect(await findAgentsFiles(root, root)).toEqual([{ path: path.join(root, 'AGENTS.md'), text: 'one' }]);
  });
});
