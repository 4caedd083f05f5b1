import { describe, expect, it } from 'vitest';
import type { Access } from '../../../src/tools/permission-gate.js';
import { decidePermission } from '../../../src/tools/permissions/permission-mode.js';
import { parsePermissionMode, type PermissionMode } from '../../../src/tools/permissions/permission-modes.js';

const cwd = '/work/project';

type Row = [PermissionMode, string, Access, Record<string, unknown>, 'allow' | 'ask' | 'deny'];

describe('decidePermission defaults', () => {
  it.each<Row>([
    ['ask', 'read', 'read', { path: 'src/a.ts' }, 'allow'],
    ['ask', 'read', 'read', { path: '/etc/passwd' }, 'ask'],
    ['ask', 'read', 'read', { path: '../sibling/x' }, 'ask'],
    ['ask', 'grep', 'search', { pattern: 'x' }, 'allow'],
    ['ask', 'todo', 'read', { todos: [] }, 'allow'],
    ['ask', 'write', 'write', { path: 'a.ts' }, 'ask'],
    ['ask', 'bash', 'execute', { command: 'ls' }, 'ask'],
    ['ask', 'web_fetch', 'network', { url: 'https://a.com' }, 'ask'],
    ['acceptEdits', 'write', 'write', { path: 'a.ts' }, 'allow'],
    ['acceptEdits', 'edit', 'write', { path: 'src/../b.ts' }, 'allow'],
    ['acceptEdits', 'write', 'write', { path: '/tmp/x' }, 'ask'],
    ['acceptEdits', 'bash', 'execute', { command: 'ls' }, 'ask'],
    ['bypass', 'bash', 'execute', { command: 'rm -rf build' }, 'allow'],
    ['bypass', 'write', 'write', { path: '/etc/hosts' }, 'allow'],
    ['deny', 'bash', 'execute', { command: 'ls' }, 'deny'],
    ['deny', 'write', 'write', { path: 'a.ts' }, 'deny'],
    ['deny', 'read', 'read', { path: 'a.ts' }, 'allow'],
    ['deny', 'read', 'read', { path: '/etc/passwd' }, 'deny'],
  ])('%s mode: %s %s %j → %s', async (mode, tool, access, args, expected) => {
    expect(await decidePermission({ rules: [], mode, tool, access, args, cwd })).toBe(expected);
  });

  it('counts additional directories as workspace', async () => {
    const q = { rules: [], mode: 'acceptEdits' as const, tool: 'write', access: 'write' as const, args: { path: '/data/x' }, cwd };
    expect(await decidePermission(q)).toBe('ask');
    expect(await decidePermission({ ...q, additionalDirectories: ['/data'] })).toBe('allow');
  });
});

describe('decidePermission with rules', () => {
  const base = { cwd, tool: 'bash', access: 'execute' as const };
  it('lets allow rules skip the question, and deny rules refuse even in bypass', async () => {
    expect(await decidePermission({ ...base, mode: 'ask', rules: [{ allow: ['bash(npm test*)'] }], args: { command: 'npm test' } })).toBe('allow');
    expect(await decidePermission({ ...base, mode: 'deny', rules: [{ allow: ['bash(npm test*)'] }], args: { command: 'npm test' } })).toBe('allow');
    expect(await decidePermission({ ...base, mode: 'bypass', rules: [{ deny: ['bash(rm *)'] }], args: { command: 'rm -rf /' } })).toBe('deny');
  });

  it('keeps ask rules asking in acceptEdits, allowing in bypass and refusing in deny', async () => {
    const rules = [{ ask: ['edit(package.json)'] }];
    const q = { cwd, tool: 'edit', access: 'write' as const, rules, args: { path: 'package.json' } };
    expect(await decidePermission({ ...q, mode: 'acceptEdits' })).toBe('ask');
    expect(await decidePermission({ ...q, mode: 'bypass' })).toBe('allow');
    expect(await decidePermission({ ...q, mode: 'deny' })).toBe('deny');
  });

  it('lets a rule allow reading outside the workspace', async () => {
    const q = { cwd, tool: 'read', access: 'read' as const, mode: 'ask' as const, args: { path: '/usr/share/doc/x' } };
    expect(await decidePermission({ ...q, rules: [] })).toBe('ask');
    expect(await decidePermission({ ...q, rules: [{ allow: ['read(/usr/share/**)'] }] })).toBe('allow');
  });
});

describe('parsePermissionMode', () => {
  it('accepts the four modes and rejects others with the list', () => {
    expect(parsePermissionMode('acceptEdits')).toBe('acceptEdits');
    expect(() => parsePermissionMode('yolo')).toThrow('Unknown permission mode "yolo"; use one of: ask, acceptEdits, bypass, deny.');
  });
});

describe('paths written with ~', () => {
  it('are matched as the home paths the tools read', async () => {
    const { homedir } = await import('node:os');
    const { join } = await import('node:path');
    const rules = [{ deny: [`read(${join(homedir(), '.ssh')}/**)`] }];
    const question = { rules, mode: 'bypass' as const, tool: 'read', access: 'read' as const, cwd: '/tmp/project' };
    expect(await decidePermission({ ...question, args: { path: '~/.ssh/id_rsa' } })).toBe('deny');
    expect(await decidePermission({ ...question, args: { path: join(homedir(), '.ssh', 'id_rsa') } })).toBe('deny');
  });
});

describe('decidePermission across sources and modes', () => {
  const rm = { tool: 'bash', access: 'execute' as const, args: { command: 'rm -rf build' }, cwd: '/tmp/project' };
  const sources = [{ deny: ['bash(rm:*)'] }, { ask: ['bash'] }];

  it.each<PermissionMode>(['ask', 'acceptEdits', 'bypass', 'deny'])('a project ask never overrides a user deny (%s mode)', async (mode) => {
    expect(await decidePermission({ ...rm, rules: sources, mode })).toBe('deny');
  });

  it('a project ask still tightens a user allow', async () => {
    const rules = [{ allow: ['bash(git:*)'] }, { ask: ['bash(git push:*)'] }];
    expect(await decidePermission({ ...rm, rules, mode: 'ask', args: { command: 'git push' } })).toBe('ask');
    expect(await decidePermission({ ...rm, rules, mode: 'ask', args: { command: 'git status' } })).toBe('allow');
  });

  it('asks for a protected target whatever allow rules say, except in bypass, and refuses it in deny', async () => {
    const q = { rules: [{ allow: ['edit(**)', 'edit'] }], tool: 'edit', access: 'write' as const, args: { path: '.git/config' }, cwd: '/tmp/project' };
    const protectedReason = '.git/config is inside .git';
    expect(await decidePermission({ ...q, mode: 'ask', protectedReason })).toBe('ask');
    expect(await decidePermission({ ...q, mode: 'acceptEdits', protectedReason })).toBe('ask');
    expect(await decidePermission({ ...q, mode: 'bypass', protectedReason })).toBe('allow');
    expect(await decidePermission({ ...q, mode: 'deny', protectedReason })).toBe('deny');
    expect(await decidePermission({ ...q, rules: [{ deny: ['edit(.git/**)'] }], mode: 'bypass', protectedReason })).toBe('deny');
  });

  it('does not take a tool hint for read access in deny mode without an allow rule', async () => {
    const q = { tool: 'docs__search', access: 'read' as const, args: {}, cwd: '/tmp/project', accessFromHint: true };
    expect(await decidePermission({ ...q, rules: [], mode: 'ask' })).toBe('allow');
    expect(await decidePermission({ ...q, rules: [], mode: 'deny' })).toBe('deny');
    expect(await decidePermission({ ...q, rules: [{ allow: ['docs__search'] }], mode: 'deny' })).toBe('allow');
  });
});
