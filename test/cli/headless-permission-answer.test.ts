import { describe, expect, it } from 'vitest';
import { headlessPermissionAnswer } from '../../src/cli/headless-permission-answer.js';
import type { PermissionMode } from '../../src/tools/permissions/permission-modes.js';

const cwd = '/work/project';

describe('headlessPermissionAnswer (agentd run as a client of the owner)', () => {
  const cases: Array<[string, PermissionMode, { kind: string; rawInput: Record<string, unknown> }, 'allow_once' | undefined]> = [
    ['ask answers nothing (the owner falls back to "no client")', 'ask', { kind: 'edit', rawInput: { path: 'a.txt' } }, undefined],
    ['deny answers nothing', 'deny', { kind: 'execute', rawInput: { command: 'ls' } }, undefined],
    ['bypass allows', 'bypass', { kind: 'execute', rawInput: { command: 'ls' } }, 'allow_once'],
    ['acceptEdits allows an edit inside cwd', 'acceptEdits', { kind: 'edit', rawInput: { path: 'src/a.ts' } }, 'allow_once'],
    ['acceptEdits refuses an edit that climbs out with ..', 'acceptEdits', { kind: 'edit', rawInput: { path: '../other/a.ts' } }, undefined],
    ['acceptEdits refuses an absolute path outside', 'acceptEdits', { kind: 'edit', rawInput: { path: '/etc/passwd' } }, undefined],
    ['acceptEdits refuses a sibling with the same prefix', 'acceptEdits', { kind: 'edit', rawInput: { path: '/work/project-evil/a' } }, undefined],
    ['acceptEdits refuses a command', 'acceptEdits', { kind: 'execute', rawInput: { command: 'rm -rf .' } }, undefined],
    ['acceptEdits refuses an edit with no path', 'acceptEdits', { kind: 'edit', rawInput: {} }, undefined],
  ];
  it.each(cases)('%s', (_name, mode, toolCall, expected) => {
    expect(headlessPermissionAnswer(mode, { toolCall }, cwd)).toBe(expected);
  });
});
