import { describe, expect, it } from 'vitest';
import { agentAllowsTool } from '../../src/loop/agent-allows-tool.js';
import { BUILTIN_AGENTS } from '../../src/config/builtin-agents.js';
import { BUILD_ROLE_PROMPT } from '../../src/config/build-system-prompt.js';

const tools = [
  { name: 'read', access: 'read' },
  { name: 'ls', access: 'read' },
  { name: 'grep', access: 'search' },
  { name: 'glob', access: 'search' },
  { name: 'web_fetch', access: 'network' },
  { name: 'write', access: 'write' },
  { name: 'edit', access: 'write' },
  { name: 'bash', access: 'execute' },
] as const;

function allowed(agent: Parameters<typeof agentAllowsTool>[0]): string[] {
  return tools.filter((tool) => agentAllowsTool(agent, tool)).map((tool) => tool.name);
}

describe('agentAllowsTool', () => {
  it('gives full access everything, read access reading, searching and fetching, search access reading and searching', () => {
    expect(allowed({ access: 'full' })).toEqual(tools.map((t) => t.name));
    expect(allowed({ access: 'read' })).toEqual(['read', 'ls', 'grep', 'glob', 'web_fetch']);
    expect(allowed({ access: 'search' })).toEqual(['read', 'ls', 'grep', 'glob']);
  });

  it('narrows further with the tools allowlist, never widening access', () => {
    expect(allowed({ access: 'full', tools: ['read', 'bash'] })).toEqual(['read', 'bash']);
    expect(allowed({ access: 'search', tools: ['grep', 'bash'] })).toEqual(['grep']);
    expect(allowed({ access: 'read', tools: [] })).toEqual([]);
  });
});

describe('BUILTIN_AGENTS', () => {
  it('has build (full, the build role), plan (read-only) and explore (search-only)', () => {
    expect(BUILTIN_AGENTS.map((a) => [a.name, a.access, a.source])).toEqual([
      ['build', 'full', 'builtin'],
      ['plan', 'read', 'builtin'],
      ['explore', 'search', 'builtin'],
    ]);
    const [build, plan, explore] = BUILTIN_AGENTS;
    expect(build!.prompt).toBe(BUILD_ROLE_PROMPT);
    expect(plan!.prompt).toMatch(/never write, edit or delete files and never run commands/);
    expect(plan!.prompt).toMatch(/plan/);
    expect(explore!.prompt).toMatch(/Find what was asked and report it/);
    for (const agent of BUILTIN_AGENTS) expect(agent.description.length).toBeGreaterThan(10);
  });
});
