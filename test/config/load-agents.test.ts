import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgents } from '../../src/config/load-agents.js';
import { BUILTIN_AGENTS } from '../../src/config/builtin-agents.js';

let root: string;
let cwd: string;
let userConfigDir: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-'));
  cwd = path.join(root, 'project');
  userConfigDir = path.join(root, 'config');
  fs.mkdirSync(cwd);
  fs.mkdirSync(userConfigDir);
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function userAgent(name: string, text: string): string {
  return write(path.join(userConfigDir, 'agents', `${name}.md`), text);
}
function projectAgent(name: string, text: string): string {
  return write(path.join(cwd, '.agentd', 'agents', `${name}.md`), text);
}
function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

describe('loadAgents', () => {
  it('returns the built-ins when nothing else is defined', () => {
    const { agents, errors } = loadAgents({ cwd, userConfigDir, config: {}, trusted: false, builtins: BUILTIN_AGENTS });
    expect(errors).toEqual([]);
    expect(agents).toEqual(BUILTIN_AGENTS);
    expect(agents[0]).not.toBe(BUILTIN_AGENTS[0]);
  });

  it('adds config agents and lets a config entry change only some fields of a built-in', () => {
    const { agents, errors } = loadAgents({
      cwd,
      userConfigDir,
      trusted: false, builtins: BUILTIN_AGENTS,
      config: {
        agents: {
          plan: { model: 'anthropic/claude-opus-4-1', temperature: 0.2 },
          reviewer: { description: 'Reviews diffs', prompt: 'You review code.', access: 'read', tools: ['read', 'grep'], maxTurns: 5 },
        },
      },
    });
    expect(errors).toEqual([]);
    const plan = agents.find((a) => a.name === 'plan')!;
    expect(plan).toEqual({ ...BUILTIN_AGENTS[1], model: 'anthropic/claude-opus-4-1', temperature: 0.2, source: 'config' });
    expect(agents.find((a) => a.name === 'reviewer')).toEqual({
      name: 'reviewer',
      description: 'Reviews diffs',
      prompt: 'You review code.',
      access: 'read',
      tools: ['read', 'grep'],
      maxTurns: 5,
      source: 'config',
    });
  });

  it('reads user then project agent files, a trusted project winning by name', () => {
    userAgent(
      'reviewer',
      '---\ndescription: User reviewer\nmodel: openai/gpt-4.1\naccess: read\ntools: [read, grep]\n---\nYou are the user reviewer.\n',
    );
    const projectFile = projectAgent('reviewer', '---\ndescription: Project reviewer\ntemperature: 0\n---\n\nYou are the project reviewer.\n');
    const docsFile = userAgent('docs', '---\r\ndescription: Writes docs\r\ntools: read, write\r\nmaxTurns: 8\r\n---\r\nWrite docs.\r\n');
    const { agents, errors } = loadAgents({ cwd, userConfigDir, config: { agents: { reviewer: { description: 'Config reviewer', prompt: 'config' } } }, trusted: true, builtins: BUILTIN_AGENTS });
    expect(errors).toEqual([]);
    expect(agents.map((a) => a.name)).toEqual(['build', 'plan', 'explore', 'reviewer', 'docs']);
    expect(agents.find((a) => a.name === 'reviewer')).toEqual({
      name: 'reviewer',
      description: 'Project reviewer',
      prompt: 'You are the project reviewer.',
      model: 'openai/gpt-4.1',
      temperature: 0,
      access: 'read',
      tools: ['read', 'grep'],
      source: projectFile,
    });
    expect(agents.find((a) => a.name === 'docs')).toEqual({
      name: 'docs',
      description: 'Writes docs',
      prompt: 'Write docs.',
      access: 'full',
      tools: ['read', 'write'],
      maxTurns: 8,
      source: docsFile,
    });
  });

  it('lets a trusted project override a built-in prompt from a file whose front matter sets nothing', () => {
    const file = projectAgent('build', 'You are the house build agent.\n');
    const build = loadAgents({ cwd, userConfigDir, config: {}, trusted: true, builtins: BUILTIN_AGENTS }).agents[0]!;
    expect(build).toEqual({ ...BUILTIN_AGENTS[0], prompt: 'You are the house build agent.', source: file });
  });

  it('skips broken files with an error naming the file and the field, and still loads the others', () => {
    const badAccess = projectAgent('a-bad-access', '---\ndescription: x\naccess: write\n---\nprompt');
    const badYaml = projectAgent('b-bad-yaml', '---\ndescription: x\ntools: [read,\n---\nprompt');
    const badKey = projectAgent('c-bad-key', '---\ndescription: x\nmodle: openai/gpt-4.1\n---\nprompt');
    const noDescription = projectAgent('d-no-description', '---\nmodel: openai/gpt-4.1\n---\nprompt');
    const noPrompt = projectAgent('e-no-prompt', '---\ndescription: empty body\n---\n');
    const wrongName = projectAgent('f-wrong-name', '---\nname: other\ndescription: x\n---\nprompt');
    const badTemperature = projectAgent('g-bad-temperature', '---\ndescription: x\ntemperature: "0.5"\n---\nprompt');
    const notMapping = projectAgent('h-not-mapping', '---\n- a\n- b\n---\nprompt');
    projectAgent('good', '---\ndescription: fine\n---\nA good agent.');
    write(path.join(cwd, '.agentd', 'agents', 'notes.txt'), 'ignored: not .md');

    const { agents, errors } = loadAgents({ cwd, userConfigDir, config: {}, trusted: false, builtins: BUILTIN_AGENTS });
    expect(agents.map((a) => a.name)).toEqual(['build', 'plan', 'explore', 'good']);
    expect(errors).toEqual([
      `${badAccess}: access: expected one of "full", "read", "search", got the string "write"`,
      `${badYaml}:3:14: invalid YAML front matter: Flow sequence in block collection must be sufficiently indented and end with a ]`,
      `${badKey}: modle: unknown key; did you mean "model"?`,
      `${noDescription}: description: missing or empty: give the agent a one-line description of what it is for`,
      `${noPrompt}: the body (the prompt) is missing or empty: a new agent needs a role prompt (the body of its .md file, or "prompt" in config.json)`,
      `${wrongName}: name: "other" differs from the file name "f-wrong-name"; rename the file to other.md or remove the name field`,
      `${badTemperature}: temperature: expected a number, got the string "0.5"; write the number without quotes: 0.5`,
      `${notMapping}:2:1: the front matter must be a YAML mapping of "key: value" lines`,
    ]);
  });

  it('rejects a file name that cannot be an agent name, and a config entry missing its prompt', () => {
    const file = projectAgent('has space', '---\ndescription: x\n---\nprompt');
    const { agents, errors } = loadAgents({
      cwd,
      userConfigDir,
      config: { agents: { helper: { description: 'no prompt' }, 'bad name': { description: 'x', prompt: 'y' } } },
      trusted: false, builtins: BUILTIN_AGENTS,
    });
    expect(agents).toHaveLength(3);
    expect(errors).toEqual([
      'config.json: agents.helper.prompt: missing or empty: a new agent needs a role prompt (the body of its .md file, or "prompt" in config.json)',
      'config.json: agents["bad name"]: agent names use letters, digits, ".", "-" and "_" (at most 64), starting with a letter or digit; rename "bad name"',
      `${file}: the file name is the agent name: use letters, digits, ".", "-" and "_" (at most 64), starting with a letter or digit`,
    ]);
  });
});
