import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isInside, realpathLoose, resolveArgPath, resolveConfinedPath } from '../../../src/tools/access/path-confinement.js';
import { makeContext, makeTempDir, recordingGate, type TempDir } from '../tool-test-context.js';

describe('path confinement', () => {
  let ws: TempDir;
  let other: TempDir;
  beforeEach(() => {
    ws = makeTempDir();
    other = makeTempDir();
  });
  afterEach(() => {
    ws.cleanup();
    other.cleanup();
  });
  const request = { tool: 'read', access: 'read' as const, args: {} };

  it('resolves paths inside the workspace without asking, including ones that do not exist yet', async () => {
    const gate = recordingGate('deny');
    const ctx = makeContext(ws.dir, { permission: gate });
    expect(await resolveConfinedPath(ctx, 'a/b/new.txt', request)).toBe(path.join(ws.dir, 'a/b/new.txt'));
    expect(await resolveConfinedPath(ctx, path.join(ws.dir, 'x'), request)).toBe(path.join(ws.dir, 'x'));
    expect(await resolveConfinedPath(ctx, 'sub/../y', request)).toBe(path.join(ws.dir, 'y'));
    expect(gate.requests).toEqual([]);
  });

  it('treats additional directories as part of the workspace', async () => {
    const ctx = makeContext(ws.dir, { permission: recordingGate('deny'), additionalDirectories: [other.dir] });
    expect(await resolveConfinedPath(ctx, path.join(other.dir, 'f'), request)).toBe(path.join(other.dir, 'f'));
  });

  it('asks for paths outside and refuses when denied, allows when granted', async () => {
    const denied = makeContext(ws.dir, { permission: recordingGate('deny') });
    await expect(resolveConfinedPath(denied, path.join(other.dir, 'f'), request)).rejects.toThrow('Permission denied');
    const gate = recordingGate('allow');
    const allowed = makeContext(ws.dir, { permission: gate });
    expect(await resolveConfinedPath(allowed, '/etc/hostname', request)).toBe(fs.realpathSync('/etc/hostname'));
    expect(gate.requests[0]?.reason).toContain('outside the workspace');
  });

  it('catches .. traversal and symlinks, including dangling ones and chains', async () => {
    const ctx = makeContext(ws.dir, { permission: recordingGate('deny') });
    fs.symlinkSync(other.dir, path.join(ws.dir, 'out'));
    fs.symlinkSync(path.join(ws.dir, 'out'), path.join(ws.dir, 'chain'));
    fs.symlinkSync(path.join(other.dir, 'later.txt'), path.join(ws.dir, 'dangling'));
    for (const p of ['../x', `${path.relative(ws.dir, other.dir)}/f`, 'out/f', 'chain/f', 'dangling', 'out/new/deeper.txt']) {
      await expect(resolveConfinedPath(ctx, p, request), p).rejects.toThrow('outside the workspace');
    }
  });

  it('follows a symlink that stays inside the workspace', async () => {
    fs.mkdirSync(path.join(ws.dir, 'real'));
    fs.symlinkSync(path.join(ws.dir, 'real'), path.join(ws.dir, 'alias'));
    const ctx = makeContext(ws.dir, { permission: recordingGate('deny') });
    expect(await resolveConfinedPath(ctx, 'alias/f.txt', request)).toBe(path.join(ws.dir, 'real/f.txt'));
  });

  it('rejects symlink loops, empty paths and NUL bytes with clear errors', async () => {
    fs.symlinkSync(path.join(ws.dir, 'loop-b'), path.join(ws.dir, 'loop-a'));
    fs.symlinkSync(path.join(ws.dir, 'loop-a'), path.join(ws.dir, 'loop-b'));
    await expect(realpathLoose(path.join(ws.dir, 'loop-a'))).rejects.toThrow(/symbolic links|ELOOP/);
    expect(() => resolveArgPath('', ws.dir)).toThrow('The path is empty');
    expect(() => resolveArgPath('a\0b', ws.dir)).toThrow('NUL byte');
  });

  it('expands ~ and checks containment', () => {
    expect(resolveArgPath('~/notes.txt', ws.dir)).toBe(path.join(os.homedir(), 'notes.txt'));
    expect(isInside('/a/b', '/a')).toBe(true);
    expect(isInside('/a', '/a')).toBe(true);
    expect(isInside('/ab', '/a')).toBe(false);
    expect(isInside('/a/..b', '/a')).toBe(true);
  });
});
