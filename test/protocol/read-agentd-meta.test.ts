import { describe, expect, it } from 'vitest';
import { AgentdPromptResponseMetaSchema, readAgentdMeta } from '../../protocol/index.js';

describe('readAgentdMeta', () => {
  it('reads the `_meta.agentd` of a message by its schema, other extensions and fields aside', () => {
    const answer = { stopReason: 'end_turn', _meta: { other: 1, agentd: { outcome: 'budget_exceeded', message: 'spent $1', newer: true } } };
    expect(readAgentdMeta(AgentdPromptResponseMetaSchema, answer)).toEqual({ outcome: 'budget_exceeded', message: 'spent $1', newer: true });
  });

  it('is undefined when there is no `_meta.agentd`', () => {
    for (const message of [undefined, null, 'text', {}, { _meta: null }, { _meta: { other: 1 } }]) {
      expect(readAgentdMeta(AgentdPromptResponseMetaSchema, message)).toBeUndefined();
    }
  });

  it('is undefined when `_meta` or `_meta.agentd` has the wrong shape', () => {
    for (const message of [{ _meta: 'x' }, { _meta: { agentd: 'x' } }, { _meta: { agentd: { message: 7 } } }]) {
      expect(readAgentdMeta(AgentdPromptResponseMetaSchema, message)).toBeUndefined();
    }
  });
});
