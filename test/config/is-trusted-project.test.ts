import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTrustedProject } from '../../src/config/is-trusted-project.js';

let root: string;
let project: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-trust-')));
  project = path.join(root, 'p');
  fs.mkdirSync(path.join(project, 'packages', 'a'), { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('isTrustedProject', () => {
  it('trusts the listed directory however it is spelled', () => {
    fs.symlinkSync(project, path.join(root, 'link'));
    expect(isTrustedProject(project, [project])).toBe(true);
    expect(isTrustedProject(project, [`${project}/`])).toBe(true);
    expect(isTrustedProject(`${project}/`, [project])).toBe(true);
    expect(isTrustedProject(path.join(project, 'packages', '..'), [project])).toBe(true);
    expect(isTrustedProject(path.join(root, 'link'), [project])).toBe(true);
    expect(isTrustedProject(project, [path.join(root, 'link')])).toBe(true);
  });

  it('trusts neither subfolders of a trusted project (their .agentd could be written from it) nor its parent, siblings or look-alike names', () => {
    fs.mkdirSync(path.join(root, 'p-evil'));
    expect(isTrustedProject(path.join(project, 'packages', 'a'), [project])).toBe(false);
    expect(isTrustedProject(path.join(project, 'packages', 'a'), [project, path.join(project, 'packages', 'a')])).toBe(true);
    expect(isTrustedProject(root, [project])).toBe(false);
    expect(isTrustedProject(path.join(root, 'p-evil'), [project])).toBe(false);
    expect(isTrustedProject(project, [])).toBe(false);
  });

  it('does not trust a symlink inside a trusted project that points out of it', () => {
    const outside = path.join(root, 'outside');
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(project, 'escape'));
    expect(isTrustedProject(path.join(project, 'escape'), [project])).toBe(false);
  });
});

describe('trustedProjects in config.json', () => {
  it('refuses a relative entry, naming the path and the fix', async () => {
    const { AgentdConfigSchema } = await import('../../src/config/config-schema.js');
    const parsed = AgentdConfigSchema.safeParse({ trustedProjects: ['/abs', '~/code/p', 'code/p'] });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['trustedProjects.2', 'expected an absolute path like "/home/me/code/project" (or "~/code/project"); a relative path would depend on where agentd starts'],
    ]);
  });

  it('expands ~ to the home directory', () => {
    expect(isTrustedProject(path.join(os.homedir(), 'x'), ['~/x'])).toBe(true);
    expect(isTrustedProject(path.join(os.homedir(), 'x', 'y'), ['~/x/y'])).toBe(true);
    expect(isTrustedProject(path.join(os.homedir(), 'xy'), ['~/x'])).toBe(false);
  });
});
