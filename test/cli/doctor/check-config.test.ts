import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkConfig } from '../../../src/cli/doctor/check-config.js';
import { makeTempHome, type TempHome } from './temp-home.js';

let t: TempHome;
let project: string;
beforeEach(() => {
  t = makeTempHome();
  project = path.join(t.home, 'project');
  fs.mkdirSync(project);
});
afterEach(() => t.cleanup());

describe('checkConfig', () => {
  it('is ok with no config file and says where the files would be', () => {
    const { check, config } = checkConfig({ paths: t.paths, cwd: project });
    expect(check.status).toBe('ok');
    expect(check.detail).toContain(t.paths.configFile);
    expect(check.detail).toContain(path.join(project, '.agentd', 'config.json'));
    expect(config).toEqual({});
  });

  it('lists the files read, user then project, and returns the merged config', () => {
    const user = t.writeConfig({ maxTurns: 9 });
    fs.mkdirSync(path.join(project, '.agentd'));
    fs.writeFileSync(path.join(project, '.agentd', 'config.json'), JSON.stringify({ maxTurns: 5 }));
    const { check, config } = checkConfig({ paths: t.paths, cwd: project });
    expect(check).toEqual({ id: 'config', title: 'config', status: 'ok', detail: `valid: ${user}, ${path.join(project, '.agentd', 'config.json')}` });
    expect(config?.maxTurns).toBe(5);
  });

  it('fails an invalid file naming the file, the JSON path and the problem, and returns no config', () => {
    const file = t.writeConfig({ maxTurns: 'ten' });
    const { check, config } = checkConfig({ paths: t.paths, cwd: project });
    expect(check.status).toBe('fail');
    expect(check.detail).toContain(`${file}: maxTurns:`);
    expect(check.fix).toMatch(/correct each value/);
    expect(config).toBeUndefined();
  });

  it('fails a --config file that does not exist', () => {
    const missing = path.join(t.home, 'nope.json');
    const { check } = checkConfig({ paths: t.paths, cwd: project, configFile: missing });
    expect(check.status).toBe('fail');
    expect(check.detail).toBe(`${missing}: config file not found; check the --config path`);
  });

  it('warns when a file holding an API key is readable by others, without printing the key', () => {
    const file = t.writeConfig({ providers: { openai: { apiKey: 'sk-very-secret' } } }, 0o644);
    const { check, config } = checkConfig({ paths: t.paths, cwd: project });
    expect(check.status).toBe('warn');
    expect(check.fix).toContain(`chmod 600 ${file}`);
    expect(JSON.stringify(check)).not.toContain('sk-very-secret');
    expect(config?.providers?.openai?.apiKey).toBe('sk-very-secret');

    fs.chmodSync(file, 0o600);
    expect(checkConfig({ paths: t.paths, cwd: project }).check.status).toBe('ok');
  });
});
