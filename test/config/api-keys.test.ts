import { describe, expect, it } from 'vitest';
import type { AgentdConfig } from '../../src/config/config-schema.js';
import { collectSecrets, redactSecrets } from '../../src/config/redact-secrets.js';
import { apiKeyVariables, resolveApiKey } from '../../src/config/resolve-api-key.js';

describe('resolveApiKey', () => {
  it('prefers the conventional environment variable over the config', () => {
    expect(resolveApiKey('openai', { apiKey: 'from-config' }, { OPENAI_API_KEY: 'from-env' })).toBe('from-env');
    expect(resolveApiKey('openai', { apiKey: 'from-config' }, {})).toBe('from-config');
    expect(resolveApiKey('openai', undefined, {})).toBeUndefined();
  });

  it('uses apiKeyEnv instead of the conventional variable', () => {
    const provider = { apiKeyEnv: 'WORK_OPENAI', apiKey: 'from-config' };
    expect(resolveApiKey('openai', provider, { WORK_OPENAI: 'work', OPENAI_API_KEY: 'personal' })).toBe('work');
    expect(resolveApiKey('openai', provider, { OPENAI_API_KEY: 'personal' })).toBe('from-config');
  });

  it('tries GEMINI_API_KEY then GOOGLE_API_KEY for google and gemini', () => {
    expect(resolveApiKey('google', undefined, { GOOGLE_API_KEY: 'g', GEMINI_API_KEY: 'm' })).toBe('m');
    expect(resolveApiKey('gemini', undefined, { GOOGLE_API_KEY: 'g' })).toBe('g');
  });

  it('knows the conventional names and derives one for custom ids', () => {
    expect(apiKeyVariables('qwen', undefined)).toEqual(['DASHSCOPE_API_KEY']);
    expect(apiKeyVariables('azure', undefined)).toEqual(['AZURE_OPENAI_API_KEY']);
    expect(apiKeyVariables('local-llm.2', undefined)).toEqual(['LOCAL_LLM_2_API_KEY']);
    expect(resolveApiKey('local-llm.2', undefined, { LOCAL_LLM_2_API_KEY: 'k' })).toBe('k');
  });

  it('treats blank variables as unset and trims whitespace', () => {
    expect(resolveApiKey('anthropic', { apiKey: 'cfg' }, { ANTHROPIC_API_KEY: '  ' })).toBe('cfg');
    expect(resolveApiKey('anthropic', undefined, { ANTHROPIC_API_KEY: 'sk-ant-1\n' })).toBe('sk-ant-1');
  });
});

describe('redactSecrets', () => {
  it('replaces every occurrence of secrets of 8 or more characters', () => {
    const text = 'key sk-live-1234 sent; retry with sk-live-1234; short abc; other sk-live-1234567';
    expect(redactSecrets(text, ['sk-live-1234', 'sk-live-1234567', 'abc'])).toBe(
      'key [redacted] sent; retry with [redacted]; short abc; other [redacted]',
    );
  });

  it('collects configured keys, credential headers and secret-looking variables', () => {
    const config: AgentdConfig = {
      providers: {
        openai: { apiKey: 'sk-config-key-1', headers: { Authorization: 'Bearer tok-header-9', 'X-Trace': 'trace-id-123' } },
        local: { apiKeyEnv: 'LOCAL_KEY' },
      },
      mcpServers: {
        gh: { command: 'gh-mcp', env: { GITHUB_TOKEN: 'ghp_mcp_token', PATH_EXTRA: '/usr/local/bin' } },
        remote: { url: 'http://127.0.0.1/mcp', headers: { 'x-api-key': 'remote-key-77' } },
      },
    };
    const env = {
      OPENAI_API_KEY: 'sk-env-key-2',
      GITHUB_TOKEN: 'ghp_env_token',
      AWS_SECRET: 'aws-secret-value',
      LOCAL_KEY: 'local-key-value',
      HOME: '/home/someone',
      SHORT_TOKEN: 'tiny',
    };
    expect(collectSecrets(config, env).sort()).toEqual(
      [
        'sk-config-key-1',
        'Bearer tok-header-9',
        'tok-header-9',
        'local-key-value',
        'ghp_mcp_token',
        'remote-key-77',
        'sk-env-key-2',
        'ghp_env_token',
        'aws-secret-value',
      ].sort(),
    );
    const log = 'POST with Authorization: Bearer tok-header-9 and key sk-env-key-2 from /home/someone';
    expect(redactSecrets(log, collectSecrets(config, env))).toBe(
      'POST with Authorization: [redacted] and key [redacted] from /home/someone',
    );
  });
});
