import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { readUserConfig } from '../../src/config/load-config.js';
import { ProjectSettingsResolver } from '../../src/config/project-settings.js';
import { DaemonCostTotals } from '../../src/loop/track-cost.js';
import { noClientAsker } from '../../src/project/permission-asker.js';
import type { ProjectParts } from '../../src/project/project-parts.js';
import { Projects } from '../../src/project/projects.js';
import { RememberedWarnings } from '../../src/project/remembered-warnings.js';
import { createModelCatalog } from '../../src/providers/catalog/model-catalog.js';
import { createProviderRegistry } from '../../src/providers/registry/create-provider-registry.js';
import { HookRunner } from '../../src/tools/hooks/hook-runner.js';
import { ToolRegistry } from '../../src/tools/tool-registry.js';

/** Real settings files in a temp home and two project folders; the parts a daemon would share. */
function setUp(root: string): { projects: Projects; resolver: ProjectSettingsResolver; parts: ProjectParts; a: string; b: string; lines: string[] } {
  const env = { AGENTD_HOME: path.join(root, 'home') };
  const paths = resolveAgentdPaths(env);
  fs.mkdirSync(paths.configDir, { recursive: true });
  fs.writeFileSync(paths.configFile, JSON.stringify({ providers: { local: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1', models: { small: {} } } }, model: 'local/small' }));
  const a = path.join(root, 'a');
  const b = path.join(root, 'b');
  for (const dir of [a, b]) fs.mkdirSync(path.join(dir, '.agentd'), { recursive: true });
  const lines: string[] = [];
  const log = (line: string): void => void lines.push(line);
  const user = readUserConfig({ cwd: root, paths });
  const resolver = new ProjectSettingsResolver({ user, log });
  const config = resolver.userConfig;
  const parts: ProjectParts = {
    userConfig: config,
    registry: createProviderRegistry({ config, env }),
    catalog: createModelCatalog(config.providers),
    sandbox: Promise.resolve({ mode: 'none', reason: 'not probed in this test' }),
    tools: new ToolRegistry(),
    asker: noClientAsker,
    hooks: new HookRunner({ config: undefined, configOf: () => undefined, cwdOf: () => root, log, env }),
    mcpServers: { status: () => [], onStateChange: () => () => undefined },
    paths,
    env,
    costTotals: new DaemonCostTotals(),
    log,
    warned: new Set(),
    agentProblems: new Map(),
    rememberedWarnings: new RememberedWarnings(path.join(root, 'warnings.json')),
  };
  return { projects: new Projects(resolver, parts), resolver, parts, a, b, lines };
}

describe('Projects: one Project per settings root, its version rising with its files', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-projects-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('gives the same object for one folder however it is spelled, and another for another folder', () => {
    const { projects, a, b } = setUp(root);
    fs.symlinkSync(a, path.join(root, 'link-to-a'));
    const first = projects.for(a);
    expect(projects.for(a + path.sep)).toBe(first);
    expect(projects.for(path.join(root, 'link-to-a'))).toBe(first);
    expect(projects.for(b)).not.toBe(first);
    expect(first.root).toBe(fs.realpathSync(a));
  });

  it('keeps its version while nothing changed, and raises it when its config file changes, keeping the object', () => {
    const { projects, a } = setUp(root);
    const project = projects.for(a);
    const before = project.version;
    expect(projects.for(a).version).toBe(before);
    expect(project.config.maxTurns).toBeUndefined();
    fs.writeFileSync(path.join(a, '.agentd', 'config.json'), JSON.stringify({ maxTurns: 7 }));
    // A different size is a different stamp, whatever the clock's resolution.
    expect(projects.for(a)).toBe(project);
    expect(project.version).toBeGreaterThan(before);
    expect(project.config.maxTurns).toBe(7);
  });

  it('touch raises the version of one project, or of every project', () => {
    const { projects, a, b } = setUp(root);
    const pa = projects.for(a);
    const pb = projects.for(b);
    const [va, vb] = [pa.version, pb.version];
    projects.touch(pa.root);
    expect([pa.version, pb.version]).toEqual([va + 1, vb]);
    projects.touch(undefined);
    expect([pa.version, pb.version]).toEqual([va + 2, vb + 1]);
  });

  it("an edit of the user's config reaches every project: new settings, new providers, a higher version", () => {
    const { projects, resolver, parts, a } = setUp(root);
    const project = projects.for(a);
    const before = project.version;
    expect(project.defaultModel).toBe('local/small');
    fs.writeFileSync(parts.paths.configFile, JSON.stringify({ providers: { local: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1', models: { big: {} } } }, model: 'local/big' }));
    resolver.setUser(readUserConfig({ cwd: root, paths: parts.paths }));
    projects.replaceUserConfig(resolver.userConfig);
    expect(project.version).toBeGreaterThan(before);
    expect(project.defaultModel).toBe('local/big');
    expect(project.resolveModel(null).ref).toBe('local/big');
    expect(project.modelChoices().map((choice) => choice.value)).toContain('local/big');
  });

  it('an invalid project file keeps the last good settings (and says why), without a new version', () => {
    const { projects, a, lines } = setUp(root);
    fs.writeFileSync(path.join(a, '.agentd', 'config.json'), JSON.stringify({ maxTurns: 3 }));
    const project = projects.for(a);
    const version = project.version;
    fs.writeFileSync(path.join(a, '.agentd', 'config.json'), '{ "maxTurns": ');
    expect(projects.for(a)).toBe(project);
    expect(project.version).toBe(version);
    expect(project.config.maxTurns).toBe(3);
    expect(lines.join('\n')).toContain(path.join(fs.realpathSync(a), '.agentd', 'config.json'));
  });

  it('a model that is not configured is a clear error naming it', () => {
    const { projects, a } = setUp(root);
    expect(() => projects.for(a).resolveModel('nowhere/model')).toThrow(/model nowhere\/model cannot be used/);
  });
});
