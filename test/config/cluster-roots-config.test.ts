import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentdPaths, resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { ConfigError } from '../../src/config/config-error.js';
import { loadConfig } from '../../src/config/load-config.js';

let dir: string;
let paths: AgentdPaths;
let project: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-'));
  paths = resolveAgentdPaths({ AGENTD_HOME: path.join(dir, 'home') });
  project = path.join(dir, 'project');
  fs.mkdirSync(project);
  fs.mkdirSync(path.dirname(paths.configFile), { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function withRoots(roots: unknown): () => ReturnType<typeof loadConfig> {
  fs.writeFileSync(paths.configFile, JSON.stringify({ cluster: { roots } }));
  return () => loadConfig({ cwd: project, paths });
}

function configError(load: () => unknown): string {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected loadConfig to throw');
}

describe('cluster.roots in the user config', () => {
  it('takes absolute folders, and an empty list (every folder)', () => {
    expect(withRoots(['/srv/work', '/home/ada/code/'])().config.cluster).toEqual({ roots: ['/srv/work', '/home/ada/code/'] });
    expect(withRoots([])().config.cluster).toEqual({ roots: [] });
  });

  it('refuses a relative entry, ~, an empty string and a non-string, one error per entry naming it and the fix', () => {
    const message = configError(withRoots(['/srv/work', 'work', '~/code', '', 7]));
    expect(message.split('\n')).toEqual([
      `${paths.configFile}: cluster.roots[1]: "work" is a relative path; write an absolute folder like "/srv/work"`,
      `${paths.configFile}: cluster.roots[2]: "~/code" starts with ~, which is not expanded here; write the folder in full, like "/home/you/work"`,
      `${paths.configFile}: cluster.roots[3]: an empty folder; write an absolute folder like "/srv/work", or remove the entry`,
      expect.stringMatching(new RegExp(`^${paths.configFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cluster\\.roots\\[4\\]: .*string`)),
    ]);
  });

  it('refuses roots that are not a list', () => {
    expect(configError(withRoots('/srv/work'))).toMatch(/cluster\.roots: .*array/);
  });

  it('ignores roots in a project file, trusted or not, keeping the user\'s', () => {
    for (const trusted of [false, true]) {
      fs.writeFileSync(paths.configFile, JSON.stringify({ cluster: { roots: ['/srv/work'] }, ...(trusted ? { trustedProjects: [project] } : {}) }));
      fs.mkdirSync(path.join(project, '.agentd'), { recursive: true });
      fs.writeFileSync(path.join(project, '.agentd', 'config.json'), JSON.stringify({ cluster: { roots: ['/'] } }));
      const { config, warnings } = loadConfig({ cwd: project, paths });
      expect(config.cluster).toEqual({ roots: ['/srv/work'] });
      expect(warnings).toEqual([`ignored cluster in ${project}/.agentd/config.json: cluster settings are read from your user config.json only; move them there`]);
    }
  });
});
