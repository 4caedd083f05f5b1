import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { loadConfig } from '../../src/config/load-config.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** Load a user config.json holding `providers`, as the daemon does. */
function load(providers: unknown): ReturnType<typeof loadConfig>['config'] {
  const home = mkdtempSync(join(tmpdir(), 'agentd-home-'));
  homes.push(home);
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'config.json'), JSON.stringify({ providers }));
  return loadConfig({ cwd: home, paths: resolveAgentdPaths({ AGENTD_HOME: home }) }).config;
}

describe('reasoningTag in config', () => {
  it('accepts a tag name, the two tags spelled out, and false, per provider and per model', () => {
    const config = load({
      local: {
        type: 'openai-chat',
        baseUrl: 'http://127.0.0.1:8080/v1',
        quirks: { reasoningTag: 'thought' },
        models: {
          'my-r1-tune': { reasoningTag: { open: '<reasoning>', close: '</reasoning>', startsInside: true }, contextWindow: 32768 },
          'qwen3-8b': { reasoningTag: false },
        },
      },
    });
    expect(config.providers?.['local']?.quirks?.reasoningTag).toBe('thought');
    expect(config.providers?.['local']?.models?.['my-r1-tune']?.reasoningTag).toEqual({ open: '<reasoning>', close: '</reasoning>', startsInside: true });
    expect(config.providers?.['local']?.models?.['qwen3-8b']?.reasoningTag).toBe(false);
  });

  it.each([
    ['true', true],
    ['a tag written with its brackets', '<think>'],
    ['a number', 3],
  ])('refuses %s with one line naming the path and the accepted forms', (_name, tag) => {
    expect(() => load({ local: { type: 'openai-chat', quirks: { reasoningTag: tag } } })).toThrow(
      /providers\.local\.quirks\.reasoningTag: expected a tag name like "think" \(for <think>…<\/think>\), an object like \{"open": "<think>", "close": "<\/think>"\}, or false/,
    );
  });

  it('refuses tags that are the same or padded with whitespace, and an object without close', () => {
    expect(() => load({ local: { type: 'openai-chat', models: { m: { reasoningTag: { open: '<t>', close: '<t>' } } } } })).toThrow(
      /providers\.local\.models\.m\.reasoningTag: the open and close tags must differ and have no surrounding whitespace/,
    );
    expect(() => load({ local: { type: 'openai-chat', models: { m: { reasoningTag: { open: '<t> ', close: '</t>' } } } } })).toThrow(
      /providers\.local\.models\.m\.reasoningTag: the open and close tags must differ/,
    );
    expect(() => load({ local: { type: 'openai-chat', models: { m: { reasoningTag: { open: '<t>' } } } } })).toThrow(/providers\.local\.models\.m\.reasoningTag: expected a tag name like "think"/);
  });
});
