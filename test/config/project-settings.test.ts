import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { ProjectSettingsResolver } from '../../src/config/project-settings.js';

let root: string;
let p: string;
let q: string;
let logged: string[];
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-settings-')));
  p = path.join(root, 'p');
  q = path.join(root, 'q');
  fs.mkdirSync(p);
  fs.mkdirSync(q);
  logged = [];
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function projectConfig(dir: string, json: unknown): void {
  fs.mkdirSync(path.join(dir, '.agentd'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.agentd', 'config.json'), typeof json === 'string' ? json : JSON.stringify(json));
}
function resolver(user: Record<string, unknown> = {}): ProjectSettingsResolver {
  return new ProjectSettingsResolver({ user: { file: path.join(root, 'user.json'), json: user }, log: (line) => logged.push(line) });
}

describe('ProjectSettingsResolver', () => {
  it('gives each directory its own project file over the user config, rules kept apart', () => {
    projectConfig(p, { model: 'local/p-model', permissions: { deny: ['bash'] } });
    projectConfig(q, { maxTurns: 3 });
    const projects = resolver({ model: 'local/user-model', permissions: { deny: ['web_fetch'] } });
    const ps = projects.resolve(p);
    const qs = projects.resolve(q);
    expect(ps.config.model).toBe('local/p-model');
    expect(ps.permissionSources).toEqual([{ deny: ['web_fetch'] }, { deny: ['bash'] }]);
    expect(qs.config).toMatchObject({ model: 'local/user-model', maxTurns: 3 });
    expect(qs.permissionSources).toEqual([{ deny: ['web_fetch'] }]);
    expect(ps.user).toEqual({ model: 'local/user-model', permissions: { deny: ['web_fetch'] } });
  });

  it('judges trust per directory and logs an untrusted project\'s ignored settings once', () => {
    projectConfig(p, { permissions: { allow: ['bash'] } });
    projectConfig(q, { permissions: { allow: ['bash'] } });
    const projects = resolver({ trustedProjects: [p] });
    expect(projects.resolve(p)).toMatchObject({ trusted: true, permissionSources: [{ allow: ['bash'] }] });
    expect(projects.resolve(q)).toMatchObject({ trusted: false, permissionSources: [] });
    projects.resolve(q);
    expect(logged).toEqual([
      `ignored permissions.allow in ${q}/.agentd/config.json: a project file could allow commands without asking; to allow it, add "${q}" to trustedProjects in your user config.json`,
    ]);
  });

  it('caches per real directory and re-reads a changed file', () => {
    fs.symlinkSync(p, path.join(root, 'link'));
    projectConfig(p, { model: 'local/one' });
    const projects = resolver();
    const first = projects.resolve(p);
    expect(projects.resolve(path.join(root, 'link'))).toBe(first);
    expect(projects.resolve(`${p}/`)).toBe(first);
    projectConfig(p, { model: 'local/second' });
    expect(projects.resolve(p).config.model).toBe('local/second');
    fs.rmSync(path.join(p, '.agentd', 'config.json'));
    expect(projects.resolve(p).config.model).toBeUndefined();
  });

  it('throws for an invalid file first seen, keeps the last good settings after a bad edit', () => {
    projectConfig(q, '{ "maxTurns": "ten" }');
    expect(() => resolver().resolve(q)).toThrow(ConfigError);
    projectConfig(p, { maxTurns: 4 });
    const projects = resolver();
    expect(projects.resolve(p).config.maxTurns).toBe(4);
    projectConfig(p, '{ "maxTurns": ');
    expect(projects.resolve(p).config.maxTurns).toBe(4);
    expect(logged.join('\n')).toContain(`${p}/.agentd/config.json`);
    expect(logged.join('\n')).toContain('keeping the last valid settings');
  });
});
