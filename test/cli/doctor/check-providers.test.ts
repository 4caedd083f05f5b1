import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentdConfigSchema, type AgentdConfig } from '../../../src/config/config-schema.js';
import { checkProviders } from '../../../src/cli/doctor/check-providers.js';
import { makeTempHome, type TempHome } from './temp-home.js';

let t: TempHome;
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());

function check(config: unknown, env: NodeJS.ProcessEnv = {}): ReturnType<typeof checkProviders> {
  return checkProviders({ config: AgentdConfigSchema.parse(config) as AgentdConfig, env, paths: t.paths });
}

describe('checkProviders', () => {
  it('fails when no provider is set up, listing the ways to set one up', () => {
    const checks = check({});
    expect(checks).toHaveLength(1);
    expect(checks[0]?.status).toBe('fail');
    expect(checks[0]?.fix).toContain('ANTHROPIC_API_KEY');
    expect(checks[0]?.fix).toContain(t.paths.configFile);
  });

  it('is ok for a local server from config that needs no key', () => {
    expect(check({ providers: { local: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1' } } })).toEqual([
      { id: 'provider:local', title: 'provider local', status: 'ok', detail: 'openai-chat at http://127.0.0.1:9/v1; no API key (none needed)' },
    ]);
  });

  it('picks up a built-in provider from its key variable and names the variable, never the key', () => {
    const checks = check({}, { ANTHROPIC_API_KEY: 'sk-ant-secret-value' });
    expect(checks).toEqual([
      {
        id: 'provider:anthropic',
        title: 'provider anthropic',
        status: 'ok',
        detail: 'anthropic-messages at https://api.anthropic.com; API key from $ANTHROPIC_API_KEY',
      },
    ]);
    expect(JSON.stringify(checks)).not.toContain('sk-ant-secret-value');
  });

  it('says a key comes from config without showing it, and shows a base URL from the environment', () => {
    const checks = check({ providers: { openai: { apiKey: 'sk-config-secret' } } }, { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' });
    expect(checks[0]?.detail).toBe('openai-responses at http://127.0.0.1:11434/v1 (from OPENAI_BASE_URL); API key from config (providers.openai.apiKey)');
    expect(JSON.stringify(checks)).not.toContain('sk-config-secret');
  });

  it('fails a provider the default model needs when its key is missing, with the variable to set', () => {
    const checks = check({ model: 'deepseek/deepseek-chat' });
    expect(checks[0]).toMatchObject({ id: 'provider:deepseek', status: 'fail' });
    expect(checks[0]?.detail).toBe('cannot be used: openai-chat at https://api.deepseek.com; no API key (looked in $DEEPSEEK_API_KEY)');
    expect(checks[0]?.fix).toContain('set the DEEPSEEK_API_KEY environment variable');
  });

  it('fails an unknown provider named by a model and a custom one without type', () => {
    const checks = check({ fallbackModel: 'nowhere/m', providers: { mine: { baseUrl: 'http://127.0.0.1:9/v1' } } });
    expect(checks.map((c) => [c.id, c.status])).toEqual([
      ['provider:mine', 'fail'],
      ['provider:nowhere', 'fail'],
    ]);
    expect(checks[0]?.fix).toContain('set providers.mine.type');
    expect(checks[1]?.fix).toContain('unknown provider "nowhere"');
  });

  it('hides credentials written into a base URL', () => {
    const checks = check({ providers: { local: { type: 'openai-chat', baseUrl: 'http://user:hunter2@127.0.0.1:9/v1' } } });
    expect(checks[0]?.detail).toBe('openai-chat at http://127.0.0.1:9/v1; no API key (none needed)');
  });
});
