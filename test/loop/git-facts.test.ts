import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitFacts, parseGitStatus } from '../../src/loop/git-facts.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=agentd', '-c', 'user.email=agentd@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' });
}

describe('gitFacts', () => {
  it('reports the branch and a short status of a real repository', async () => {
    git('init', '-q', '-b', 'feature/x');
    expect(await gitFacts(dir)).toEqual({ branch: 'feature/x', status: 'clean' });

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

    expect(await gitFacts(dir)).toEqual({ branch: 'feature/x', status: '2 modified, 1 added, 1 deleted, 1 renamed, 2 untracked' });
  });

  it('names a detached HEAD by its commit', async () => {
    git('init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
    git('add', '.');
    git('commit', '-q', '-m', 'one');
    const sha = git('rev-parse', 'HEAD').trim();
    git('checkout', '-q', '--detach');
    expect(await gitFacts(dir)).toEqual({ branch: `detached at ${sha.slice(0, 7)}`, status: 'clean' });
  });

  it('is undefined outside a repository or when the directory does not exist', async () => {
    expect(await gitFacts(dir)).toBeUndefined();
    expect(await gitFacts(path.join(dir, 'missing'))).toBeUndefined();
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
