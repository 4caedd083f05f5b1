import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { findAgentsFiles, type AgentsFileProblem } from '../../../src/config/find-agents-files.js';
import { loadAgents } from '../../../src/config/load-agents.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { FILE_CAPS, readRepositoryFile } from '../../../src/config/read-repository-file.js';
import { BUILTIN_AGENTS } from '../../../src/config/builtin-agents.js';
import { createSkillTool, discoverSkills, skillDirs } from '../../../src/tools/builtin/skill.js';
import type { SkillProblem } from '../../../src/tools/discover-skills.js';
import { makeContext, makeTempDir, textOf, type TempDir } from '../tool-test-context.js';

/*
 * F13 — files agentd reads by itself from a repository (AGENTS.md, .agentd/config.json,
 * agent and skill files) are hostile: a symlink to /proc/self/environ or ../elsewhere
 * would put that text in every model request, a FIFO would hang the reader, /dev/zero
 * would be read until the daemon runs out of memory. Each must be a regular file that
 * resolves inside the repository, read without blocking and to a cap.
 */

/** A repository (`repo/.git`), a sibling folder outside it with a secret, and the user's config folder. */
interface Layout {
  tmp: TempDir;
  repo: string;
  outside: string;
  userConfigDir: string;
}

function makeLayout(): Layout {
  const tmp = makeTempDir('agentd-f13-');
  const repo = path.join(tmp.dir, 'repo');
  const outside = path.join(tmp.dir, 'outside');
  const userConfigDir = path.join(tmp.dir, 'user-config');
  for (const dir of [path.join(repo, '.git'), path.join(repo, '.agentd'), outside, userConfigDir]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(outside, 'secret'), 'OUTSIDE-SECRET-f13\n');
  return { tmp, repo, outside, userConfigDir };
}

function mkfifo(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('mkfifo', [file]);
}

/** Runs `fn`, failing if it takes longer than `ms` (a FIFO open that blocks would never return at all). */
async function within<T>(ms: number, fn: () => Promise<T> | T): Promise<T> {
  const started = Date.now();
  const result = await fn();
  expect(Date.now() - started).toBeLessThan(ms);
  return result;
}

/** One entry of the test process's own environment: what a link to /proc/self/environ would leak. */
const ENVIRON_SAMPLE = fs.readFileSync('/proc/self/environ', 'latin1').split('\0').find((entry) => entry.startsWith('PATH='))!;

describe('F13 repository files: AGENTS.md', () => {
  let l: Layout;
  beforeEach(() => {
    l = makeLayout();
  });
  afterEach(() => l.tmp.cleanup());

  async function agentsOf(cwd = l.repo): Promise<{ texts: string; problems: AgentsFileProblem[] }> {
    const problems: AgentsFileProblem[] = [];
    const files = await within(2000, () => findAgentsFiles(cwd, l.userConfigDir, (p) => problems.push(p)));
    return { texts: files.map((f) => f.text).join('\n'), problems };
  }

  it.each([
    ['/proc/self/environ', () => '/proc/self/environ', ENVIRON_SAMPLE],
    ['../outside/secret (relative)', () => '../outside/secret', 'OUTSIDE-SECRET-f13'],
    ['an absolute path outside', () => path.join(l.outside, 'secret'), 'OUTSIDE-SECRET-f13'],
    ['/etc/hostname', () => '/etc/hostname', fs.readFileSync('/etc/hostname', 'utf8').trim()],
    ['/dev/zero', () => '/dev/zero', '\0'],
  ])('F13 AGENTS.md linking to %s is left out and named', async (_name, target, leaked) => {
    fs.symlinkSync(target(), path.join(l.repo, 'AGENTS.md'));
    const { texts, problems } = await agentsOf();
    expect(texts).not.toContain(leaked);
    expect(problems).toEqual([{ file: path.join(l.repo, 'AGENTS.md'), message: expect.stringMatching(/leads outside the repository .* replace the link with a copy of the file; it is left out/) }]);
  });

  it('F13 AGENTS.md through a linked folder (docs -> outside) is left out too', async () => {
    fs.symlinkSync(l.outside, path.join(l.repo, 'docs'));
    fs.symlinkSync('docs/secret', path.join(l.repo, 'AGENTS.md'));
    const { texts, problems } = await agentsOf();
    expect(texts).not.toContain('OUTSIDE-SECRET-f13');
    expect(problems[0]?.message).toContain(`to ${path.join(l.outside, 'secret')}`);
  });

  it('F13 a deeper AGENTS.md linking out of the repository from a subfolder session is left out, a link that stays inside is read', async () => {
    const sub = path.join(l.repo, 'pkg');
    fs.mkdirSync(sub);
    fs.writeFileSync(path.join(l.repo, 'shared-rules.md'), 'Rule: tabs.\n');
    fs.symlinkSync('shared-rules.md', path.join(l.repo, 'AGENTS.md'));
    fs.symlinkSync('../../outside/secret', path.join(sub, 'AGENTS.md'));
    const { texts, problems } = await agentsOf(sub);
    expect(texts).toBe('Rule: tabs.');
    expect(problems.map((p) => p.file)).toEqual([path.join(sub, 'AGENTS.md')]);
  });

  it('F13 AGENTS.md that links to itself is named as a loop; one that leaves and comes back into the repository is read', async () => {
    fs.symlinkSync('AGENTS.md', path.join(l.repo, 'AGENTS.md'));
    expect((await agentsOf()).problems[0]?.message).toMatch(/^is a loop of symbolic links/);
    fs.rmSync(path.join(l.repo, 'AGENTS.md'));
    fs.writeFileSync(path.join(l.repo, 'notes.md'), 'Rule: inside.\n');
    fs.symlinkSync('../repo/notes.md', path.join(l.repo, 'AGENTS.md'));
    expect(await agentsOf()).toEqual({ texts: 'Rule: inside.', problems: [] });
  });

  it('F13 a FIFO named AGENTS.md does not hang and is named as a FIFO', async () => {
    mkfifo(path.join(l.repo, 'AGENTS.md'));
    const { texts, problems } = await agentsOf();
    expect(texts).toBe('');
    expect(problems[0]?.message).toMatch(/^is a FIFO \(named pipe\), not a regular file; .*replace it with a regular file, or delete it/);
  });

  it('F13 a directory named AGENTS.md is named as a directory', async () => {
    fs.mkdirSync(path.join(l.repo, 'AGENTS.md'));
    const { problems } = await agentsOf();
    expect(problems[0]?.message).toMatch(/^is a directory, not a regular file/);
  });

  it('F13 a 50 MB AGENTS.md is cut at the cap on a line boundary, with a warning naming its size', async () => {
    const big = Buffer.alloc(50 * 1024 * 1024, 'Rule: be brief.\n');
    fs.writeFileSync(path.join(l.repo, 'AGENTS.md'), big);
    const { texts, problems } = await agentsOf();
    expect(Buffer.byteLength(texts)).toBeLessThanOrEqual(FILE_CAPS.prompt.bytes);
    expect(Buffer.byteLength(texts)).toBeGreaterThan(FILE_CAPS.prompt.bytes - 20);
    expect(texts.endsWith('Rule: be brief.')).toBe(true);
    expect(problems).toEqual([{ file: path.join(l.repo, 'AGENTS.md'), message: `is ${big.length} bytes, over the 64 KiB limit for instruction and agent files: only its first ${FILE_CAPS.prompt.bytes - (FILE_CAPS.prompt.bytes % 16)} bytes are used; shorten it` }]);
  });

  it("F13 the user's own AGENTS.md may link anywhere, but a FIFO there is refused too", async () => {
    fs.symlinkSync(path.join(l.outside, 'secret'), path.join(l.userConfigDir, 'AGENTS.md'));
    expect((await agentsOf()).texts).toBe('OUTSIDE-SECRET-f13');
    fs.rmSync(path.join(l.userConfigDir, 'AGENTS.md'));
    mkfifo(path.join(l.userConfigDir, 'AGENTS.md'));
    expect((await agentsOf()).problems[0]?.message).toMatch(/^is a FIFO/);
  });
});

describe('F13 repository files: .agentd/config.json', () => {
  let l: Layout;
  beforeEach(() => {
    l = makeLayout();
  });
  afterEach(() => l.tmp.cleanup());

  const projectFile = (): string => path.join(l.repo, '.agentd', 'config.json');
  const paths = (): { configDir: string; configFile: string; dataDir: string; stateDir: string; runtimeDir: string } => ({
    configDir: l.userConfigDir,
    configFile: path.join(l.userConfigDir, 'config.json'),
    dataDir: path.join(l.tmp.dir, 'data'),
    stateDir: path.join(l.tmp.dir, 'state'),
    runtimeDir: path.join(l.tmp.dir, 'run'),
  });
  async function configError(options: { configFile?: string } = {}): Promise<string> {
    return within(2000, () => {
      try {
        loadConfig({ cwd: l.repo, paths: paths() as never, ...options });
      } catch (error) {
        if (error instanceof ConfigError) return error.message;
        throw error;
      }
      return 'loaded';
    });
  }

  it.each([
    ['/dev/zero', '/dev/zero'],
    ['/dev/urandom', '/dev/urandom'],
  ])('F13 config.json -> %s is refused at once as a device, never read', async (_name, target) => {
    fs.symlinkSync(target, projectFile());
    // Outside the repository already; the type check is proved by the user-config case below.
    expect(await configError()).toBe(`${projectFile()}: leads outside the repository ${l.repo}, to ${target} (through a symbolic link); agentd reads a repository's own files only from inside it: replace the link with a copy of the file`);
  });

  it('F13 a FIFO config.json does not hang and is named as a FIFO', async () => {
    mkfifo(projectFile());
    expect(await configError()).toBe(`${projectFile()}: is a FIFO (named pipe), not a regular file; agentd reads only regular files here: replace it with a regular file, or delete it`);
  });

  it('F13 a config.json over 1 MiB is refused with its size', async () => {
    fs.writeFileSync(projectFile(), `{"maxTurns": 3${' '.repeat(2 * 1024 * 1024)}}`);
    expect(await configError()).toMatch(/config\.json: is 2097167 bytes, over the 1 MiB limit for config files; shorten it$/);
  });

  it.each([
    ['../../outside/config.json', (l: Layout) => { fs.writeFileSync(path.join(l.outside, 'config.json'), '{"maxTurns": 3}'); fs.symlinkSync('../../outside/config.json', path.join(l.repo, '.agentd', 'config.json')); }],
    ['.agentd itself linking outside', (l: Layout) => { fs.rmSync(path.join(l.repo, '.agentd'), { recursive: true }); fs.writeFileSync(path.join(l.outside, 'config.json'), '{"maxTurns": 3}'); fs.symlinkSync(l.outside, path.join(l.repo, '.agentd')); }],
  ])('F13 config.json via %s is refused as leading outside', async (_name, plant) => {
    plant(l);
    expect(await configError()).toContain(`leads outside the repository ${l.repo}, to ${path.join(l.outside, 'config.json')}`);
  });

  it('F13 a project reached through a symlink inside another repository still reads its own config, agents and AGENTS.md', async () => {
    const real = path.join(l.outside, 'proj');
    fs.mkdirSync(path.join(real, '.agentd', 'agents'), { recursive: true });
    fs.writeFileSync(path.join(real, '.agentd', 'config.json'), '{"maxTurns": 3}');
    fs.writeFileSync(path.join(real, '.agentd', 'agents', 'helper.md'), '---\ndescription: helps\n---\nHelp.\n');
    fs.writeFileSync(path.join(real, 'AGENTS.md'), 'Rule: own.\n');
    const linked = path.join(l.repo, 'proj');
    fs.symlinkSync(real, linked);
    const loaded = await within(2000, () => loadConfig({ cwd: linked, paths: paths() as never }));
    expect(loaded.config.maxTurns).toBe(3);
    const agents = loadAgents({ cwd: linked, userConfigDir: l.userConfigDir, config: {}, trusted: false, builtins: BUILTIN_AGENTS });
    expect(agents.errors).toEqual([]);
    expect(agents.agents.map((a) => a.name)).toContain('helper');
    expect((await findAgentsFiles(linked, l.userConfigDir)).map((f) => f.text)).toEqual(['Rule: own.']);
  });

  it("F13 the user's own config (--config) -> /dev/zero is refused as a character device; a link to a regular file elsewhere is fine", async () => {
    const link = path.join(l.tmp.dir, 'my-config.json');
    fs.symlinkSync('/dev/zero', link);
    expect(await configError({ configFile: link })).toBe(`${link}: is a character device, not a regular file; agentd reads only regular files here: replace it with a regular file, or delete it`);
    fs.rmSync(link);
    fs.writeFileSync(path.join(l.outside, 'config.json'), '{"maxTurns": 3}');
    fs.symlinkSync(path.join(l.outside, 'config.json'), link);
    expect(await configError({ configFile: link })).toBe('loaded');
  });

  it('F13 readRepositoryFile reads at most cap+1 bytes of a file that never ends (no root given)', () => {
    const result = readRepositoryFile('/dev/zero', { root: undefined, cap: FILE_CAPS.gitPointer, overCap: 'refuse' });
    expect(result).toEqual({ kind: 'refused', message: expect.stringMatching(/^is a character device/) });
  });
});

describe('F13 repository files: agent and skill files', () => {
  let l: Layout;
  beforeEach(() => {
    l = makeLayout();
  });
  afterEach(() => l.tmp.cleanup());

  const agentFile = (name: string, dir = path.join(l.repo, '.agentd', 'agents')): string => {
    fs.mkdirSync(dir, { recursive: true });
    return path.join(dir, `${name}.md`);
  };
  const agents = (): ReturnType<typeof loadAgents> =>
    loadAgents({ cwd: l.repo, userConfigDir: l.userConfigDir, config: {}, trusted: false, builtins: BUILTIN_AGENTS });
  const AGENT = '---\ndescription: reviews\n---\nYou review code. OUTSIDE-SECRET-f13\n';

  it.each([
    ['a file outside', (file: string) => { fs.writeFileSync(path.join(l.outside, 'reviewer.md'), AGENT); fs.symlinkSync(path.join(l.outside, 'reviewer.md'), file); }, /leads outside the repository/],
    ['/proc/self/environ', (file: string) => fs.symlinkSync('/proc/self/environ', file), /leads outside the repository/],
    ['a FIFO', (file: string) => mkfifo(file), /is a FIFO \(named pipe\)/],
    ['a file over 64 KiB', (file: string) => fs.writeFileSync(file, AGENT + 'x'.repeat(FILE_CAPS.prompt.bytes)), /over the 64 KiB limit for instruction and agent files/],
  ])('F13 a project agent file that is %s is skipped with an error naming it', async (_name, plant, message) => {
    plant(agentFile('reviewer'));
    const loaded = await within(2000, agents);
    expect(loaded.agents.map((a) => a.name)).not.toContain('reviewer');
    expect(JSON.stringify(loaded.agents)).not.toContain('OUTSIDE-SECRET-f13');
    expect(loaded.errors).toEqual([expect.stringMatching(new RegExp(`^${agentFile('reviewer')}: .*${message.source}.*; the agent is skipped$`))]);
  });

  it("F13 the user's own agent file may link anywhere; a FIFO there is skipped with an error", async () => {
    const userAgents = path.join(l.userConfigDir, 'agents');
    fs.writeFileSync(path.join(l.outside, 'reviewer.md'), AGENT);
    fs.symlinkSync(path.join(l.outside, 'reviewer.md'), agentFile('reviewer', userAgents));
    mkfifo(agentFile('stuck', userAgents));
    const loaded = await within(2000, agents);
    expect(loaded.agents.map((a) => a.name)).toContain('reviewer');
    expect(loaded.errors).toEqual([expect.stringMatching(/stuck\.md: is a FIFO/)]);
  });

  const skillFile = (name: string): string => {
    fs.mkdirSync(path.join(l.repo, '.agentd', 'skills', name), { recursive: true });
    return path.join(l.repo, '.agentd', 'skills', name, 'SKILL.md');
  };
  const SKILL = '---\nname: deploy\ndescription: Deploy it\n---\nOUTSIDE-SECRET-f13\n';

  it.each([
    ['SKILL.md linking outside', () => { fs.writeFileSync(path.join(l.outside, 'SKILL.md'), SKILL); fs.symlinkSync(path.join(l.outside, 'SKILL.md'), skillFile('deploy')); }, /leads outside the repository/],
    ['a skill folder linking outside', () => { fs.mkdirSync(path.join(l.outside, 'deploy')); fs.writeFileSync(path.join(l.outside, 'deploy', 'SKILL.md'), SKILL); fs.mkdirSync(path.join(l.repo, '.agentd', 'skills'), { recursive: true }); fs.symlinkSync(path.join(l.outside, 'deploy'), path.join(l.repo, '.agentd', 'skills', 'deploy')); }, /leads outside the repository/],
    ['SKILL.md -> /proc/self/environ', () => fs.symlinkSync('/proc/self/environ', skillFile('deploy')), /leads outside the repository/],
    ['a FIFO SKILL.md', () => mkfifo(skillFile('deploy')), /is a FIFO \(named pipe\)/],
  ])('F13 %s is skipped with a problem naming it, and the skill tool cannot load it', async (_name, plant, message) => {
    plant();
    const problems: SkillProblem[] = [];
    const skills = await within(2000, () => discoverSkills(skillDirs(l.repo, { userConfigDir: l.userConfigDir }), (p) => problems.push(p)));
    expect(skills).toEqual([]);
    expect(problems).toEqual([{ file: path.join(l.repo, '.agentd', 'skills', 'deploy', 'SKILL.md'), message: expect.stringMatching(message) }]);
    const result = await createSkillTool({ userConfigDir: l.userConfigDir }).execute({ name: 'deploy' }, makeContext(l.repo));
    expect(textOf(result)).not.toContain('OUTSIDE-SECRET-f13');
    expect(textOf(result)).toContain('No skill named "deploy"');
  });
});
