import { describe, expect, it } from 'vitest';
import { isSecretEnvName, scrubEnv } from '../../../src/tools/shell/scrub-env.js';

describe('scrubEnv', () => {
  it.each([
    ['ANTHROPIC_API_KEY', true],
    ['openai_api_key', true],
    ['GITHUB_TOKEN', true],
    ['AWS_SESSION_TOKEN', true],
    ['CLIENT_SECRET', true],
    ['AGENTD_HOME', true],
    ['AGENTD_AUTH', true],
    ['PATH', false],
    ['HOME', false],
    ['TOKENIZER_PATH', false],
    ['API_KEY_FILE', false],
  ])('%s secret: %s', (name, secret) => {
    expect(isSecretEnvName(name)).toBe(secret);
  });

  it('returns a copy without secrets', () => {
    const env = { PATH: '/bin', GEMINI_API_KEY: 'g', AGENTD_TOKEN_FILE: 't', LANG: 'C' };
    expect(scrubEnv(env)).toEqual({ PATH: '/bin', LANG: 'C' });
    expect(env.GEMINI_API_KEY).toBe('g');
  });
});
