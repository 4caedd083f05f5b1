import { describe, expect, it } from 'vitest';
import { agentConstraints, childConstraints, constraintRefusal } from '../../src/project/agent-constraints.js';

const bash = { name: 'bash', access: 'execute' as const };
const read = { name: 'read', access: 'read' as const };
const grep = { name: 'grep', access: 'search' as const };

describe('agent constraints', () => {
  it('a top-level session has none and may use what its own agent allows', () => {
    expect(agentConstraints({ meta: {} })).toEqual([]);
    expect(constraintRefusal([], bash)).toBeUndefined();
  });

  it('a child carries its parent agent, a grandchild both ancestors, as plain JSON', () => {
    const child = { meta: JSON.parse(JSON.stringify({ agentConstraints: childConstraints({ meta: {} }, { name: 'lead', access: 'full', tools: ['read', 'grep', 'agent'] }) })) };
    const grandchild = { meta: { agentConstraints: childConstraints(child, { name: 'mid', access: 'full', tools: ['agent', 'bash', 'read'] }) } };
    expect(agentConstraints(grandchild)).toEqual([
      { name: 'lead', access: 'full', tools: ['read', 'grep', 'agent'] },
      { name: 'mid', access: 'full', tools: ['agent', 'bash', 'read'] },
    ]);
    expect(constraintRefusal(agentConstraints(child), bash)).toMatch(/may not use bash: the lead agent that started it \(full access, tools read, grep, agent\)/);
    expect(constraintRefusal(agentConstraints(grandchild), read)).toBeUndefined();
    expect(constraintRefusal(agentConstraints(grandchild), grep)).toMatch(/the mid agent/);
  });

  it('an access level constrains like a tool list', () => {
    const constraints = agentConstraints({ meta: { agentConstraints: [{ name: 'plan', access: 'read' }] } });
    expect(constraintRefusal(constraints, bash)).toMatch(/plan agent/);
    expect(constraintRefusal(constraints, read)).toBeUndefined();
  });

  it('fails closed on stored constraints it cannot read', () => {
    for (const stored of ['full', [{ name: 'x', access: 'root' }], [{ name: 'x', access: 'full', tools: 'bash' }], [null]]) {
      expect(constraintRefusal(agentConstraints({ meta: { agentConstraints: stored } }), read)).toMatch(/unreadable constraint/);
    }
  });
});
