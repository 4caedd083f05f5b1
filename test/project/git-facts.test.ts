import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { filterDrivers, gitFacts, parseGitStatus, type GitFactsOptions } from '../../src/project/git-facts.js';
import { buildSandboxPolicy } from '../../src/tools/sandbox/sandbox-policy.js';
import { BUBBLEWRAP, requireProgram } from '../support/required-program.js';

const hasBubblewrap = requireProgram(BUBBLEWRAP);

let dir: string;
let home: string;
let options: GitFactsOptions;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-')));
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-home-')));
  const env = { PATH: process.env.PATH, HOME: home, AGENTD_HOME: path.join(home, 'agentd') };
  options = { sandbox: { mode: 'bubblewrap' }, policy: buildSandboxPolicy({ paths: resolveAgentdPaths(env), config: {}, env }).policy, env };
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
});

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=agentd', '-c', 'user.email=agentd@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' });
}

describe('gitFacts', () => {
  it.skipIf(!hasBubblewrap)('reports the branch and a short status of a real repository', async () => {
    git('init', '-q', '-b', 'feature/x');
    expect(await gitFacts(dir, options)).toEqual({ branch: 'feature/x', status: 'clean' });

    for (const name of ['a.txt', 'b.txt', 'c.txt', 'gone.txt', 'old.txt']) fs.writeFileSync(path.join(dir, name), `${name}\n`);
    git('add', '.');
    git('commit', '-q', '-m', 'initial');
    fs.writeFileSync(path.join(dir, 'a.txt'), 'changed\n');
    fs.writeFileSync(path.join(dir, 'b.txt'), 'changed\n');
    git('add', 'b.txt');
    fs.writeFileSync(path.join(dir, 'new.txt'), 'staged new\n');
    git('add', 'new.txt');
    fs.rmSync(path.join(dir, 'gone.txt'));
    git('mv', 'old.txt', 'renamed.txt');
    fs.writeFileSync(path.join(dir, 'untracked.txt'), 'x\n');
    fs.writeFileSync(path.join(dir, 'untracked2.txt'), 'x\n');

    expect(await gitFacts(dir, options)).toEqual({ branch: 'feature/x', status: '2 modified, 1 added, 1 deleted, 1 renamed, 2 untracked' });
  });

  it.skipIf(!hasBubblewrap)('names a detached HEAD by its commit', async () => {
    git('init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
    git('add', '.');
    git('commit', '-q', '-m', 'one');
    const sha = git('rev-parse', 'HEAD').trim();
    git('checkout', '-q', '--detach');
    expect(await gitFacts(dir, options)).toEqual({ branch: `detached at ${sha.slice(0, 7)}`, status: 'clean' });
  });

  it('without the sandbox reads the branch from files and runs no git at all', async () => {
    git('init', '-q', '-b', 'topic');
    fs.writeFileSync(path.join(dir, 'untracked.txt'), 'x\n');
    expect(await gitFacts(dir, { ...options, sandbox: { mode: 'none', reason: 'test' } })).toEqual({ branch: 'topic' });
  });

  it.skipIf(!hasBubblewrap)('describes a subdirectory of a repository, and a linked worktree through its .git file', async () => {
    git('init', '-q', '-b', 'main');
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'sub', 'a.txt'), 'a\n');
    git('add', '.');
    git('commit', '-q', '-m', 'one');
    expect(await gitFacts(path.join(dir, 'sub'), options)).toEqual({ branch: 'main', status: 'clean' });

    const tree = path.join(home, 'linked');
    git('worktree', 'add', '-q', '-b', 'side', tree);
    fs.writeFileSync(path.join(tree, 'new.txt'), 'n\n');
    expect(fs.statSync(path.join(tree, '.git')).isFile()).toBe(true);
    expect(await gitFacts(tree, options)).toEqual({ branch: 'side', status: '1 untracked' });
  });

  it('is undefined outside a repository or when the directory does not exist', async () => {
    expect(await gitFacts(dir, options)).toBeUndefined();
    expect(await gitFacts(path.join(dir, 'missing'), options)).toBeUndefined();
  });
});

describe('filterDrivers', () => {
  it('takes the driver names, dots inside included, from git config --null --name-only', () => {
    expect(filterDrivers('filter.lfs.clean\0filter.lfs.process\0filter.a.b.smudge\0filter.x\0')).toEqual(['lfs', 'a.b']);
  });
});

describe('parseGitStatus', () => {
  it('counts conflicts and reads the branch header', () => {
    const output = [
      '# branch.oid 1234567890abcdef',
      '# branch.head main',
      '# branch.upstream origin/main',
      '# branch.ab +1 -0',
      'u UU N... 100644 100644 100644 100644 aaa bbb ccc both.txt',
      '1 .M N... 100644 100644 100644 aaa aaa "name with\\nnewline.txt"',
      '',
    ].join('\n');
    expect(parseGitStatus(output)).toEqual({ branch: 'main', status: '1 modified, 1 conflicted' });
  });
});
