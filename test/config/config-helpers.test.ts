import { describe, expect, it } from 'vitest';
import { closestMatch } from '../../src/config/closest-match.js';
import { formatJsonPath } from '../../protocol/index.js';
import { mergeConfigs } from '../../src/config/merge-configs.js';

describe('closestMatch', () => {
  const keys = ['model', 'fallbackModel', 'providers', 'baseUrl', 'maxTurns', 'budgetUsd'];
  it.each([
    ['modle', 'model'],
    ['baseURL', 'baseUrl'],
    ['provider', 'providers'],
    ['maxturns', 'maxTurns'],
    ['budget_usd', 'budgetUsd'],
    ['fallbackmodle', 'fallbackModel'],
  ])('%s → %s', (word, expected) => {
    expect(closestMatch(word, keys)).toBe(expected);
  });

  it('suggests nothing for unrelated words', () => {
    expect(closestMatch('colour', keys)).toBeUndefined();
    expect(closestMatch('x', ['y', 'model'])).toBe('y');
    expect(closestMatch('ab', ['cd'])).toBeUndefined();
  });
});

describe('formatJsonPath', () => {
  it('writes paths as JavaScript accessors', () => {
    expect(formatJsonPath([])).toBe('(top level)');
    expect(formatJsonPath(['providers', 'local', 'baseUrl'])).toBe('providers.local.baseUrl');
    expect(formatJsonPath(['schedules', 0, 'cron'])).toBe('schedules[0].cron');
    expect(formatJsonPath(['providers', 'my.proxy', 'headers', 'x-api-key'])).toBe(
      'providers["my.proxy"].headers["x-api-key"]',
    );
  });
});

describe('mergeConfigs', () => {
  it('merges objects deeply and replaces arrays, scalars and MCP server entries whole', () => {
    const user = {
      model: 'a/b',
      providers: { openai: { headers: { a: '1' }, maxRetries: 2 } },
      permissions: { allow: ['x', 'y'] },
      mcpServers: { s: { command: 'c', args: ['1'] }, t: { url: 'http://127.0.0.1/' } },
    };
    const project = {
      model: 'c/d',
      providers: { openai: { headers: { b: '2' } }, local: { baseUrl: 'http://127.0.0.1/' } },
      permissions: { allow: ['z'] },
      mcpServers: { s: { url: 'http://127.0.0.1:1/' } },
    };
    expect(mergeConfigs(user, project)).toEqual({
      model: 'c/d',
      providers: { openai: { headers: { a: '1', b: '2' }, maxRetries: 2 }, local: { baseUrl: 'http://127.0.0.1/' } },
      permissions: { allow: ['z'] },
      mcpServers: { s: { url: 'http://127.0.0.1:1/' }, t: { url: 'http://127.0.0.1/' } },
    });
    // Inputs are left untouched.
    expect(user.providers.openai.headers).toEqual({ a: '1' });
  });
});
