import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBashTool } from '../../../src/tools/builtin/bash.js';
import { defaultSandboxPolicy } from '../../../src/tools/sandbox/sandbox-policy.js';
import { makeContext, makeTempDir, textOf, type TempDir } from '../tool-test-context.js';
import { BUBBLEWRAP, requireProgram } from '../../support/required-program.js';

const hasBubblewrap = requireProgram(BUBBLEWRAP);

/**
 * F7 (the other way in): a session whose writable directories contain a trusted project
 * (the home folder holding your checkouts, a monorepo root with a trusted package, an
 * additional directory) cannot give that project new `.agentd` config with bash: its
 * `.agentd` is read-only, cannot be created, and the project cannot be renamed away and
 * replaced by a new folder of the same name.
 */
describe.skipIf(!hasBubblewrap)('[F7 nested-trust] sandboxed bash against a trusted project inside the workspace', () => {
  let ws: TempDir;
  let extra: TempDir;
  let data: TempDir;
  const original = '{"model":"local/m"}';
  beforeEach(() => {
    ws = makeTempDir('agentd-ws-');
    extra = makeTempDir('agentd-extra-');
    data = makeTempDir('agentd-data-');
  });
  afterEach(() => {
    for (const dir of [ws, extra, data]) dir.cleanup();
  });

  const project = (dir: string, withConfig = true): string => {
    fs.mkdirSync(dir, { recursive: true });
    if (withConfig) {
      fs.mkdirSync(path.join(dir, '.agentd'));
      fs.writeFileSync(path.join(dir, '.agentd', 'config.json'), original);
    }
    return dir;
  };
  const bash = async (command: string, trustedProjects: string[], additionalDirectories: string[] = [], cwd = ws.dir): Promise<string> => {
    const policy = { ...defaultSandboxPolicy({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: data.dir }), trustedProjects };
    const ctx = makeContext(cwd, { sandbox: { mode: 'bubblewrap' }, dataDir: data.dir, additionalDirectories });
    return textOf(await createBashTool({ policy }).execute({ command }, ctx));
  };
  const config = (dir: string): string | undefined => {
    const file = path.join(dir, '.agentd', 'config.json');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  };

  it.each([
    ['overwrite', 'echo pwned > p/.agentd/config.json'],
    ['remove and recreate', 'rm -rf p/.agentd; mkdir -p p/.agentd && echo pwned > p/.agentd/config.json'],
    ['move aside', 'mv p/.agentd p/old; mkdir -p p/.agentd && echo pwned > p/.agentd/config.json'],
    ['rename the project away', 'mv p p-old && mkdir -p p/.agentd && echo pwned > p/.agentd/config.json'],
    ['delete the project', 'rm -rf p; mkdir -p p/.agentd && echo pwned > p/.agentd/config.json'],
    ['symlink swap', 'mv p p-old; ln -s p-old p'],
  ])('[F7 nested-trust] %s: a trusted project inside the workspace keeps its .agentd', async (_name, command) => {
    const p = project(path.join(ws.dir, 'p'));
    await bash(command, [p]);
    expect(config(p)).toBe(original);
    expect(fs.lstatSync(p).isDirectory()).toBe(true);
  });

  it('[F7 nested-trust] renaming a parent of the trusted project away does not let a new one take its place', async () => {
    const p = project(path.join(ws.dir, 'code', 'p'));
    await bash('mv code code-old; mkdir -p code/p/.agentd && echo pwned > code/p/.agentd/config.json', [p]);
    expect(config(p)).toBe(original);
  });

  it('[F7 nested-trust] a trusted project without .agentd cannot be given one, and no mount point is left behind', async () => {
    const p = project(path.join(ws.dir, 'p'), false);
    const out = await bash('mkdir p/.agentd && echo pwned > p/.agentd/config.json', [p]);
    expect(out).toMatch(/File exists|Read-only file system/);
    expect(fs.existsSync(path.join(p, '.agentd'))).toBe(false);
  });

  it('[F7 nested-trust] a trusted project that does not exist yet cannot be created by a command', async () => {
    const p = path.join(ws.dir, 'later', 'p');
    await bash('mkdir -p later/p/.agentd && echo pwned > later/p/.agentd/config.json', [p]);
    expect(fs.existsSync(path.join(ws.dir, 'later'))).toBe(false);
  });

  it('[F7 nested-trust] a trusted project inside an additional directory keeps its .agentd', async () => {
    const p = project(path.join(extra.dir, 'p'));
    await bash(`echo pwned > ${p}/.agentd/config.json; mv ${p} ${extra.dir}/old; mkdir -p ${p}/.agentd; echo pwned > ${p}/.agentd/config.json`, [p], [extra.dir]);
    expect(config(p)).toBe(original);
  });

  it('[F7 nested-trust] a trusted subfolder of the trusted workspace keeps its .agentd, listed through a symlink with a trailing slash', async () => {
    const p = project(path.join(ws.dir, 'packages', 'a'));
    fs.symlinkSync(path.join(ws.dir, 'packages'), path.join(extra.dir, 'pk'));
    await bash('echo pwned > packages/a/.agentd/config.json; mv packages/a packages/b; mkdir -p packages/a/.agentd', [ws.dir, `${extra.dir}/pk/a/`]);
    expect(config(p)).toBe(original);
  });

  it('[F7 nested-trust] (control) other files of the trusted project stay writable, and an untrusted subfolder may get a .agentd (read as untrusted)', async () => {
    const p = project(path.join(ws.dir, 'p'));
    await bash('echo ok > p/notes.txt && mkdir -p q/.agentd && echo x > q/.agentd/config.json', [p]);
    expect(fs.readFileSync(path.join(p, 'notes.txt'), 'utf8')).toBe('ok\n');
    expect(config(path.join(ws.dir, 'q'))).toBe('x\n');
  });
});
