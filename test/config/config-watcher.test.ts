import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigWatcher, type ConfigChange } from '../../src/config/config-watcher.js';

/** Real files, real inotify watches: what the daemon's reload sees of an editor's saves. */
describe('ConfigWatcher', () => {
  let root: string;
  let changes: ConfigChange[];
  let logs: string[];
  let watcher: ConfigWatcher;

  const make = (options: { maxProjects?: number } = {}): ConfigWatcher =>
    new ConfigWatcher({
      userConfigFile: join(root, 'home', 'config', 'config.json'),
      userConfigDir: join(root, 'home', 'config'),
      onChange: (change) => void changes.push(change),
      log: (line) => void logs.push(line),
      ...options,
    });

  /** Waits (bounded) until a reported change names `file`. */
  async function changeOf(file: string): Promise<ConfigChange> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const found = changes.find((change) => change.files.includes(file));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no change of ${file} was reported; got ${JSON.stringify(changes)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agentd-watch-')));
    changes = [];
    logs = [];
  });

  afterEach(async () => {
    await watcher.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("sees the user's config folder created after the start, and its config.json, AGENTS.md, agents and skills", async () => {
    mkdirSync(join(root, 'home'));
    watcher = make();
    await watcher.start();
    const dir = join(root, 'home', 'config');
    mkdirSync(join(dir, 'skills', 'deploy'), { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{}');
    const first = await changeOf(join(dir, 'config.json'));
    expect(first.scope).toBe('user');
    writeFileSync(join(dir, 'skills', 'deploy', 'SKILL.md'), '---\nname: deploy\ndescription: d\n---\n');
    await changeOf(join(dir, 'skills', 'deploy', 'SKILL.md'));
    mkdirSync(join(dir, 'agents'));
    writeFileSync(join(dir, 'agents', 'reviewer.md'), 'x');
    await changeOf(join(dir, 'agents', 'reviewer.md'));
    writeFileSync(join(dir, 'AGENTS.md'), 'x');
    await changeOf(join(dir, 'AGENTS.md'));
  });

  it('a burst of saves is reported once, after it settles', async () => {
    const project = join(root, 'p');
    mkdirSync(join(project, '.agentd'), { recursive: true });
    watcher = make();
    await watcher.start();
    await watcher.acquire(project);
    const file = join(project, '.agentd', 'config.json');
    for (let i = 0; i < 8; i++) writeFileSync(file, JSON.stringify({ maxTurns: i + 1 }));
    await changeOf(file);
    // A later save of another file is a second change: the burst before it was one.
    writeFileSync(join(project, 'AGENTS.md'), 'x');
    await changeOf(join(project, 'AGENTS.md'));
    expect(changes).toEqual([
      { scope: 'project', root: project, files: [file] },
      { scope: 'project', root: project, files: [join(project, 'AGENTS.md')] },
    ]);
  });

  it("reports a project's .agentd files and the AGENTS.md files from the repository root down, nothing else", async () => {
    const repo = join(root, 'repo');
    const project = join(repo, 'pkg', 'app');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(project, { recursive: true });
    watcher = make();
    await watcher.start();
    await watcher.acquire(project);
    // Not configuration: source files, another folder's AGENTS.md, a parent's .agentd.
    writeFileSync(join(project, 'main.ts'), 'x');
    mkdirSync(join(repo, 'docs'));
    writeFileSync(join(repo, 'docs', 'AGENTS.md'), 'x');
    mkdirSync(join(repo, '.agentd'));
    writeFileSync(join(repo, '.agentd', 'config.json'), '{}');
    for (const file of [join(repo, 'AGENTS.md'), join(repo, 'pkg', 'AGENTS.md'), join(project, 'AGENTS.md')]) {
      writeFileSync(file, 'rules');
      await changeOf(file);
    }
    mkdirSync(join(project, '.agentd', 'skills', 'lint'), { recursive: true });
    writeFileSync(join(project, '.agentd', 'skills', 'lint', 'SKILL.md'), 'x');
    await changeOf(join(project, '.agentd', 'skills', 'lint', 'SKILL.md'));
    const reported = changes.flatMap((change) => change.files);
    expect(reported).not.toContain(join(project, 'main.ts'));
    expect(reported).not.toContain(join(repo, 'docs', 'AGENTS.md'));
    expect(reported).not.toContain(join(repo, '.agentd', 'config.json'));
    expect(changes.every((change) => change.scope === 'project' && change.root === project)).toBe(true);
  });

  it('a project is watched while a session uses it: counted, released by the last, bounded in number', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((name) => join(root, name));
    for (const dir of [a!, b!, c!]) mkdirSync(join(dir, '.agentd'), { recursive: true });
    watcher = make({ maxProjects: 2 });
    await watcher.start();
    await watcher.acquire(a!);
    await watcher.acquire(a!);
    await watcher.acquire(b!);
    await watcher.acquire(c!);
    expect(watcher.watchedProjects().sort()).toEqual([a, b]);
    expect(logs.join('\n')).toContain(`watching the configuration of 2 projects already; ${c} and later ones are not watched`);

    await watcher.release(a!);
    expect(watcher.watchedProjects().sort()).toEqual([a, b]);
    await watcher.release(a!);
    await watcher.release(c!);
    expect(watcher.watchedProjects()).toEqual([b]);

    // A released project's edits are no longer reported; a watched one's still are.
    writeFileSync(join(a!, '.agentd', 'config.json'), '{}');
    writeFileSync(join(b!, '.agentd', 'config.json'), '{}');
    await changeOf(join(b!, '.agentd', 'config.json'));
    expect(changes.flatMap((change) => change.files)).not.toContain(join(a!, '.agentd', 'config.json'));
  });
});
