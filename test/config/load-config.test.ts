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
let projectFile: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-'));
  paths = resolveAgentdPaths({ AGENTD_HOME: path.join(dir, 'home') });
  project = path.join(dir, 'project');
  projectFile = path.join(project, '.agentd', 'config.json');
  fs.mkdirSync(project);
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(file: string, content: unknown): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

/** The ConfigError message loadConfig throws for these options. */
function configError(options: Parameters<typeof loadConfig>[0]): string {
  try {
    loadConfig(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig', () => {
  it('is empty when no file exists', () => {
    expect(loadConfig({ cwd: project, paths })).toEqual({ config: {}, files: [], warnings: [], permissionSources: [], trusted: false, project: {} });
  });

  it('lets the project file override the user file: objects merge, arrays and scalars replace', () => {
    // A trusted project may override everything (restrict-project-config.test.ts covers the untrusted case).
    write(paths.configFile, {
      trustedProjects: [project],
      model: 'openai/gpt-4.1',
      maxTurns: 20,
      providers: { openai: { baseUrl: 'http://127.0.0.1:9/v1', headers: { 'x-a': '1' } } },
      permissions: { mode: 'ask', allow: ['Read'] },
      mcpServers: { search: { command: 'search-server', args: ['--fast'] } },
    });
    write(projectFile, {
      maxTurns: 5,
      providers: { openai: { headers: { 'x-b': '2' } } },
      permissions: { allow: ['Bash(npm test)'] },
      mcpServers: { search: { url: 'http://127.0.0.1:9/mcp' } },
    });
    expect(loadConfig({ cwd: project, paths })).toEqual({
      config: {
        trustedProjects: [project],
        model: 'openai/gpt-4.1',
        maxTurns: 5,
        providers: { openai: { baseUrl: 'http://127.0.0.1:9/v1', headers: { 'x-a': '1', 'x-b': '2' } } },
        permissions: { mode: 'ask', allow: ['Bash(npm test)'] },
        mcpServers: { search: { url: 'http://127.0.0.1:9/mcp' } },
      },
      files: [paths.configFile, projectFile],
      warnings: [],
      permissionSources: [{ allow: ['Read'] }, { allow: ['Bash(npm test)'] }],
      trusted: true,
      project: {
        maxTurns: 5,
        providers: { openai: { headers: { 'x-b': '2' } } },
        permissions: { allow: ['Bash(npm test)'] },
        mcpServers: { search: { url: 'http://127.0.0.1:9/mcp' } },
      },
    });
  });

  it('reads a --config file instead of the user file, relative to cwd', () => {
    write(paths.configFile, { model: 'openai/gpt-4.1', maxTurns: 3 });
    const custom = write(path.join(project, 'ci.json'), { model: 'anthropic/claude-sonnet-4-5' });
    write(projectFile, { budgetUsd: 2 });
    expect(loadConfig({ cwd: project, paths, configFile: 'ci.json' })).toEqual({
      config: { model: 'anthropic/claude-sonnet-4-5', budgetUsd: 2 },
      files: [custom, projectFile],
      warnings: [],
      permissionSources: [],
      trusted: false,
      project: { budgetUsd: 2 },
    });
  });

  it('fails when the --config file does not exist', () => {
    const missing = path.join(dir, 'nope.json');
    expect(configError({ cwd: project, paths, configFile: missing })).toBe(
      `${missing}: config file not found; check the --config path`,
    );
  });

  it('names the file, path and fix for a wrong type', () => {
    write(paths.configFile, '{ "maxTurns": "ten" }');
    expect(configError({ cwd: project, paths })).toBe(
      `${paths.configFile}: maxTurns: expected a whole number, got the string "ten"`,
    );
    write(paths.configFile, '{ "maxTurns": "10" }');
    expect(configError({ cwd: project, paths })).toBe(
      `${paths.configFile}: maxTurns: expected a whole number, got the string "10"; write the number without quotes: 10`,
    );
  });

  it('names an unknown key with a did-you-mean', () => {
    write(projectFile, { providers: { openai: { baseURL: 'http://127.0.0.1:9/v1' } } });
    expect(configError({ cwd: project, paths })).toBe(
      `${projectFile}: providers.openai.baseURL: unknown key; did you mean "baseUrl"?`,
    );
    write(projectFile, { modle: 'openai/gpt-4.1' });
    expect(configError({ cwd: project, paths })).toBe(`${projectFile}: modle: unknown key; did you mean "model"?`);
    write(projectFile, { sandbox: { colour: 'blue' } });
    expect(configError({ cwd: project, paths })).toBe(
      `${projectFile}: sandbox.colour: unknown key; remove it; the keys allowed here are enabled, network, env, denyRead`,
    );
  });

  it('checks sandbox.env names and sandbox.denyRead paths, saying what is expected', () => {
    write(paths.configFile, { sandbox: { env: ['JAVA_HOME', 'BAD-NAME'], denyRead: ['~/ok', 'relative/path'] } });
    const message = configError({ cwd: project, paths });
    expect(message).toContain('sandbox.env[1]: expected an environment variable name like "JAVA_HOME", or a prefix ending in * like "NPM_CONFIG_*"');
    expect(message).toContain('sandbox.denyRead[1]: expected an absolute path like "/srv/secrets" or a home path like "~/.config/vendor"');
  });

  it('explains the provider/model format', () => {
    write(paths.configFile, { model: 'gpt-4.1' });
    expect(configError({ cwd: project, paths })).toBe(
      `${paths.configFile}: model: expected a string like "openai/gpt-4.1": a provider id, a slash, then the model id; got the string "gpt-4.1"`,
    );
  });

  it('names the line and column of invalid JSON', () => {
    write(paths.configFile, '{\n  "model": "openai/gpt-4.1"\n  "maxTurns": 3\n}\n');
    expect(configError({ cwd: project, paths })).toBe(
      `${paths.configFile}:3:3: invalid JSON: expected "," or "}" after the property value (is a comma missing?)`,
    );
    write(paths.configFile, '{\n  "maxTurns": 3,\n}');
    expect(configError({ cwd: project, paths })).toBe(
      `${paths.configFile}:3:1: invalid JSON: trailing comma before "}"; remove the last comma`,
    );
  });

  it('reports every problem of every file at once, one per line', () => {
    write(paths.configFile, { maxTurns: 0, thinking: 'hgih', permissions: { mode: 'yolo' } });
    write(projectFile, { schedules: [{ name: 'daily', cron: 'every day', prompt: 'hi', cwd: '/w' }] });
    expect(configError({ cwd: project, paths }).split('\n')).toEqual([
      `${paths.configFile}: permissions.mode: expected one of "ask", "acceptEdits", "bypass", "deny", got the string "yolo"`,
      `${paths.configFile}: maxTurns: expected a whole number >= 1, got 0`,
      `${paths.configFile}: thinking: expected one of "off", "minimal", "low", "medium", "high", got the string "hgih"; did you mean "high"?`,
      `${projectFile}: schedules[0].cron: "every day" has 2 field(s); write 5 (minute hour day-of-month month day-of-week) or 6 (second first), like "0 9 * * 1-5"`,
    ]);
  });

  it('picks the MCP server shape that was meant', () => {
    write(paths.configFile, {
      mcpServers: { a: { command: 1 }, b: {}, c: { command: 'x', headers: {} }, 'my.server': { url: 'ftp://x' } },
    });
    expect(configError({ cwd: project, paths }).split('\n')).toEqual([
      `${paths.configFile}: mcpServers.a.command: expected a string, got 1`,
      `${paths.configFile}: mcpServers.b: expected a local server {"command", "args"?, "env"?, "cwd"?, "trusted"?, "startupTimeoutMs"?} or a remote one {"url", "headers"?, "trusted"?, "startupTimeoutMs"?}: give "command" or "url", not both; got an object`,
      `${paths.configFile}: mcpServers.c.headers: unknown key; remove it; the keys allowed here are command, args, env, cwd, trusted, startupTimeoutMs`,
      `${paths.configFile}: mcpServers["my.server"].url: expected an http(s) URL like "https://mcp.example.com/mcp"; got the string "ftp://x"`,
    ]);
  });

  it('checks provider ids, required fields and duplicate schedule names', () => {
    write(paths.configFile, {
      providers: { 'a/b': {} },
      hooks: { beforeToolCall: [{ tools: ['bash'] }] },
      schedules: [
        { name: 'n', cron: '@daily', prompt: 'p', cwd: '/w' },
        { name: 'n', cron: '0 9 * * 1-5', prompt: 'p', cwd: '/w' },
      ],
    });
    expect(configError({ cwd: project, paths }).split('\n')).toEqual([
      `${paths.configFile}: providers["a/b"]: invalid key; provider ids use letters, digits, ".", "_" and "-" and start with a letter or digit (e.g. "openai", "local-llm")`,
      `${paths.configFile}: schedules[1].name: schedule name "n" is used twice; give each schedule its own name`,
      `${paths.configFile}: hooks.beforeToolCall[0].command: required: expected a string`,
    ]);
  });

  it('rejects a file whose top level is not an object, or that is a directory', () => {
    write(paths.configFile, '[]');
    expect(configError({ cwd: project, paths })).toBe(`${paths.configFile}: (top level): expected an object, got an array`);
    fs.rmSync(paths.configFile);
    fs.mkdirSync(paths.configFile);
    expect(configError({ cwd: project, paths })).toBe(
      `${paths.configFile}: is a directory, not a regular file; agentd reads only regular files here: move the directory away and put a file in its place`,
    );
  });

  it('accepts a full valid config and a byte order mark', () => {
    const full = {
      model: 'anthropic/claude-sonnet-4-5',
      fallbackModel: 'openrouter/meta-llama/llama-3.1-70b',
      providers: {
        local: {
          type: 'openai-chat',
          baseUrl: 'http://127.0.0.1:11434/v1',
          apiKeyEnv: 'LOCAL_KEY',
          models: { 'qwen3:8b': { contextWindow: 32768, inputPrice: 0, tools: true } },
          timeouts: { connectMs: 1000, firstByteMs: 30000, idleMs: 60000 },
          maxRetries: 0,
          maxRetryDelayMs: 5000,
        },
        azure: { apiKey: 'k', azure: { apiVersion: '2024-10-21', deployment: 'gpt4' } },
      },
      agents: { review: { description: 'Reviews', access: 'read', temperature: 0.2, tools: ['read', 'grep'] } },
      permissions: { mode: 'acceptEdits', deny: ['Bash(rm -rf:*)'] },
      budgetUsd: 1.5,
      maxTurns: 50,
      thinking: 'medium',
      mcpServers: { fs: { command: 'mcp-fs', env: { ROOT: '/w' }, cwd: '/w' } },
      schedules: [{ name: 'standup', cron: '0 9 * * 1-5', prompt: 'Summarise', cwd: '/w', model: 'openai/gpt-4.1' }],
      server: { maxFrameBytes: 1048576, requestTimeoutMs: 60000 },
      sandbox: { enabled: true, network: false },
      hooks: { afterToolCall: [{ command: 'notify', timeoutMs: 500 }] },
    };
    write(paths.configFile, `\uFEFF${JSON.stringify(full)}`);
    expect(loadConfig({ cwd: project, paths }).config).toEqual(full);
  });
});
