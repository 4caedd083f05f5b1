import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decidePermission } from '../../../src/tools/permissions/permission-mode.js';
import {
  loadRememberedPermissions,
  rememberedPermissionsFile,
  rememberPermission,
  ruleForCall,
} from '../../../src/tools/permissions/remembered-permissions.js';
import { makeTempDir, type TempDir } from '../tool-test-context.js';

describe('remembered permissions', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());
  /** The daemon's store for remembered answers, outside the project. */
  const store = (): string => path.join(tmp.dir, 'daemon-data', 'permissions');

  it('ignores answers a repository ships in its own .agentd folder', async () => {
    fs.mkdirSync(path.join(tmp.dir, '.agentd'));
    fs.writeFileSync(path.join(tmp.dir, '.agentd', 'permissions.json'), '{"allow": ["bash"]}');
    expect(await loadRememberedPermissions(tmp.dir, store())).toEqual({});
  });

  it('derives narrow rules from a call', () => {
    expect(ruleForCall('bash', { command: ' npm test ' }, tmp.dir)).toBe('bash(npm test)');
    expect(ruleForCall('bash', { command: 'ls *.ts' }, tmp.dir)).toBe('bash(ls \\*.ts)');
    expect(ruleForCall('edit', { path: path.join(tmp.dir, 'src/a.ts') }, tmp.dir)).toBe('edit(src/a.ts)');
    expect(ruleForCall('write', { path: 'gen/[id].ts' }, tmp.dir)).toBe('write(gen/\\[id\\].ts)');
    expect(ruleForCall('web_fetch', { url: 'https://docs.example.com/a?b' }, tmp.dir)).toBe('web_fetch(domain:docs.example.com)');
    expect(ruleForCall('mcp__gh__issue', { title: 'x' }, tmp.dir)).toBe('mcp__gh__issue');
  });

  it('stores always-answers per project and they decide later calls', async () => {
    expect(await loadRememberedPermissions(tmp.dir, store())).toEqual({});
    expect(await rememberPermission(tmp.dir, store(), { tool: 'bash', args: { command: 'ls *.ts' }, outcome: 'allow_always' })).toBe('bash(ls \\*.ts)');
    await rememberPermission(tmp.dir, store(), { tool: 'web_fetch', args: { url: 'https://evil.example/' }, outcome: 'reject_always' });
    const file = rememberedPermissionsFile(tmp.dir, store());
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      project: tmp.dir,
      allow: ['bash(ls \\*.ts)'],
      deny: ['web_fetch(domain:evil.example)'],
    });
    expect(file.startsWith(store())).toBe(true);

    const rules = [await loadRememberedPermissions(tmp.dir, store())];
    const ask = { rules, mode: 'ask' as const, cwd: tmp.dir };
    expect(await decidePermission({ ...ask, tool: 'bash', access: 'execute', args: { command: 'ls *.ts' } })).toBe('allow');
    expect(await decidePermission({ ...ask, tool: 'bash', access: 'execute', args: { command: 'ls secret.ts' } })).toBe('ask');
    expect(await decidePermission({ ...ask, tool: 'web_fetch', access: 'network', args: { url: 'https://evil.example/x' } })).toBe('deny');
  });

  it('moves a rule when the answer flips, without duplicates', async () => {
    const call = { tool: 'bash', args: { command: 'make' } };
    await rememberPermission(tmp.dir, store(), { ...call, outcome: 'allow_always' });
    await rememberPermission(tmp.dir, store(), { ...call, outcome: 'allow_always' });
    expect(await loadRememberedPermissions(tmp.dir, store())).toEqual({ allow: ['bash(make)'], deny: [] });
    await rememberPermission(tmp.dir, store(), { ...call, outcome: 'reject_always' });
    expect(await loadRememberedPermissions(tmp.dir, store())).toEqual({ allow: [], deny: ['bash(make)'] });
  });

  it('reports a broken file with its path and the fix', async () => {
    fs.mkdirSync(store(), { recursive: true });
    fs.writeFileSync(rememberedPermissionsFile(tmp.dir, store()), '{oops');
    await expect(loadRememberedPermissions(tmp.dir, store())).rejects.toThrow(`${rememberedPermissionsFile(tmp.dir, store())} is not valid JSON`);
    fs.writeFileSync(rememberedPermissionsFile(tmp.dir, store()), '{"allow": "bash"}');
    await expect(loadRememberedPermissions(tmp.dir, store())).rejects.toThrow('"allow" must be an array of rule strings');
    fs.writeFileSync(rememberedPermissionsFile(tmp.dir, store()), '{"allow": ["bash("]}');
    await expect(loadRememberedPermissions(tmp.dir, store())).rejects.toThrow('Invalid permission rule');
  });
});
