import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDaemonSettings } from '../../src/daemon/load-daemon-settings.js';

describe('loadDaemonSettings', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("redacts a trusted project's own provider key from the log once that project is loaded", () => {
    const home = mkdtempSync(join(tmpdir(), 'agentd-home-'));
    const project = mkdtempSync(join(tmpdir(), 'agentd-proj-'));
    dirs.push(home, project);
    mkdirSync(join(home, 'config'), { recursive: true });
    writeFileSync(join(home, 'config', 'config.json'), JSON.stringify({ trustedProjects: [project], providers: { openai: { apiKey: 'sk-user-key-12345' } } }));
    mkdirSync(join(project, '.agentd'));
    writeFileSync(join(project, '.agentd', 'config.json'), JSON.stringify({ providers: { work: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-project-key-67890' } } }));
    const lines: string[] = [];
    const settings = loadDaemonSettings({ cwd: home, env: { AGENTD_HOME: home }, version: 'test', write: (line) => lines.push(line) });

    settings.projects.resolve(project);
    settings.log('request failed: Authorization: Bearer sk-project-key-67890 (user key sk-user-key-12345)');
    expect(lines.at(-1)).toBe('agentd: request failed: Authorization: Bearer [redacted] (user key [redacted])');
  });
});
