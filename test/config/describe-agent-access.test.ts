import { describe, expect, it } from 'vitest';
import { agentModeName, describeAgentAccess } from '../../src/config/describe-agent-access.js';
import { BUILTIN_AGENTS, managerAgent } from '../../src/config/builtin-agents.js';

describe('describeAgentAccess', () => {
  it('states each access level and a tool list when there is one', () => {
    expect(BUILTIN_AGENTS.map((a) => [agentModeName(a), describeAgentAccess(a)])).toEqual([
      ['build (full access)', 'full access: edits files and runs commands'],
      ['plan (read-only)', 'read-only: reads, searches and fetches web pages'],
      ['explore (search-only)', 'search-only: reads and searches'],
    ]);
    expect(describeAgentAccess(managerAgent(undefined))).toBe('full access, only these tools: agent, todo');
    expect(describeAgentAccess({ access: 'read', tools: [] })).toBe('read-only, only these tools: none');
  });

  it('follows a changed definition: a plan agent given full access says so', () => {
    const plan = { ...BUILTIN_AGENTS[1]!, access: 'full' as const };
    expect(agentModeName(plan)).toBe('plan (full access)');
    expect(describeAgentAccess(plan)).toMatch(/^full access/);
  });
});
