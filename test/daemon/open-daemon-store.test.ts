import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { ConfigError } from '../../src/config/config-error.js';
import { loadConfig } from '../../src/config/load-config.js';
import { collectSecrets } from '../../src/config/redact-secrets.js';
import { chooseStore } from '../../src/daemon/open-daemon-store.js';
import { StoreError } from '../../src/store/store-error.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-store-config-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Loads a user config.json holding `config` (the daemon's own settings). */
function load(config: unknown): ReturnType<typeof loadConfig> {
  const paths = resolveAgentdPaths({ AGENTD_HOME: path.join(dir, 'home') });
  fs.mkdirSync(path.dirname(paths.configFile), { recursive: true });
  fs.writeFileSync(paths.configFile, JSON.stringify(config));
  return loadConfig({ cwd: dir, paths });
}

function configError(config: unknown): string {
  try {
    load(config);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected a ConfigError');
}

describe('choosing the store', () => {
  it('uses the SQLite file when nothing chooses, the config when it does, and AGENTD_STORE_URL over both', () => {
    expect(chooseStore(load({}).config, {})).toEqual({ type: 'sqlite' });
    const url = 'postgres://agentd:pw@db.example.com:5432/agentd';
    const { config } = load({ store: { type: 'postgres', url } });
    expect(chooseStore(config, {})).toEqual({ type: 'postgres', url });
    expect(chooseStore(load({ store: { type: 'sqlite' } }).config, {})).toEqual({ type: 'sqlite' });
    const other = 'postgresql://other@localhost/agentd';
    expect(chooseStore(config, { AGENTD_STORE_URL: other })).toEqual({ type: 'postgres', url: other });
    expect(chooseStore(config, { AGENTD_STORE_URL: '' })).toEqual({ type: 'postgres', url });
  });

  it('names a bad store setting and how to write it', () => {
    expect(configError({ store: { type: 'mysql' } })).toMatch(/store\.type: expected \{"type": "sqlite"\} or \{"type": "postgres".*got the string "mysql"/);
    expect(configError({ store: 'postgres://x@y/z' })).toMatch(/store: expected an object, got the string/);
    expect(configError({ store: { type: 'postgres' } })).toMatch(/store\.url/);
    expect(configError({ store: { type: 'postgres', url: 'mysql://x@y/z' } })).toMatch(/store\.url: expected a PostgreSQL URL/);
    expect(configError({ store: { type: 'postgres', url: 'postgres://x@y/z', pool: 3 } })).toMatch(/store.*pool/);
    expect(configError({ store: { type: 'sqlite', url: 'postgres://x@y/z' } })).toMatch(/store.*url/);
  });

  it('names a bad AGENTD_STORE_URL', () => {
    for (const value of ['sqlite:///tmp/x.db', 'agentd.db', ' postgres://x@y/z']) {
      expect(() => chooseStore({}, { AGENTD_STORE_URL: value })).toThrow(StoreError);
      expect(() => chooseStore({}, { AGENTD_STORE_URL: value })).toThrow(/AGENTD_STORE_URL must be a PostgreSQL URL/);
    }
  });

  it('counts the store password among the secrets the log redacts', () => {
    const { config } = load({ store: { type: 'postgres', url: 'postgres://agentd:long-secret-pw@db/agentd' } });
    expect(collectSecrets(config, {})).toContain('long-secret-pw');
    expect(collectSecrets({}, { AGENTD_STORE_URL: 'postgres://agentd:env-secret-pw@db/agentd' })).toContain('env-secret-pw');
  });
});
