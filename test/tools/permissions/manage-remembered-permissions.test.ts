import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeRememberedRule } from '../../../src/tools/permissions/describe-remembered-rule.js';
import {
  listRememberedPermissions,
  permissionsStoreDir,
  revokeRememberedPermission,
} from '../../../src/tools/permissions/manage-remembered-permissions.js';
import { rememberedPermissionsFile, rememberPermission } from '../../../src/tools/permissions/remembered-permissions.js';
import { makeTempDir, type TempDir } from '../tool-test-context.js';

describe('describeRememberedRule', () => {
  it.each([
    ['bash(npm test)', 'this exact command in this project: npm test'],
    ['bash(ls \\*.ts)', 'this exact command in this project: ls *.ts'],
    ['write(src/a.ts)', 'write of this one file (symlinks resolved): src/a.ts'],
    ['edit(gen/\\[id\\].ts)', 'edit of this one file (symlinks resolved): gen/[id].ts'],
    ['web_fetch(domain:docs.example.com)', 'web_fetch to the host docs.example.com in this project'],
    ['skill(release)', 'skill "release" in this project'],
    ['gh__create_issue', 'every gh__create_issue call in this project'],
  ])('%s covers %s', (rule, words) => {
    expect(describeRememberedRule(rule)).toBe(words);
  });
});

describe('listing and revoking remembered answers', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());
  const store = (): string => permissionsStoreDir(path.join(tmp.dir, 'data'));

  it('lists allows then rejects with what each covers', async () => {
    await rememberPermission(tmp.dir, store(), { tool: 'bash', args: { command: 'make' }, outcome: 'allow_always' });
    await rememberPermission(tmp.dir, store(), { tool: 'web_fetch', args: { url: 'https://evil.example/' }, outcome: 'reject_always' });
    expect(await listRememberedPermissions(tmp.dir, store())).toEqual([
      { effect: 'allow', rule: 'bash(make)', covers: 'this exact command in this project: make' },
      { effect: 'deny', rule: 'web_fetch(domain:evil.example)', covers: 'web_fetch to the host evil.example in this project' },
    ]);
  });

  it('revokes one rule exactly as listed, and refuses an unknown one naming the rules there are', async () => {
    await rememberPermission(tmp.dir, store(), { tool: 'bash', args: { command: 'make' }, outcome: 'allow_always' });
    await rememberPermission(tmp.dir, store(), { tool: 'bash', args: { command: 'make test' }, outcome: 'allow_always' });
    await expect(revokeRememberedPermission(tmp.dir, store(), 'bash(make:*)')).rejects.toThrow(
      `"bash(make:*)" is not a remembered rule of ${tmp.dir} (remembered rules: bash(make), bash(make test)); run "agentd permissions list" and copy the rule exactly.`,
    );
    expect(await revokeRememberedPermission(tmp.dir, store(), 'bash(make)')).toEqual(['bash(make)']);
    expect((await listRememberedPermissions(tmp.dir, store())).map((r) => r.rule)).toEqual(['bash(make test)']);
  });

  it('revokes everything of one project with --all, and says so when there is nothing', async () => {
    await rememberPermission(tmp.dir, store(), { tool: 'bash', args: { command: 'make' }, outcome: 'reject_always' });
    expect(await revokeRememberedPermission(tmp.dir, store(), { all: true })).toEqual(['bash(make)']);
    expect(fs.existsSync(rememberedPermissionsFile(tmp.dir, store()))).toBe(false);
    expect(await revokeRememberedPermission(tmp.dir, store(), { all: true })).toEqual([]);
    await expect(revokeRememberedPermission(tmp.dir, store(), 'bash(make)')).rejects.toThrow('no answers are remembered for it');
  });
});
