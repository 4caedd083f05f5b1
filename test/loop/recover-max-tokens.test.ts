import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../../src/providers/message.js';
import { MAX_TOKENS_RECOVERIES, prepareMaxTokensRecovery, RESUME_INSTRUCTION, resumeMessage } from '../../src/loop/recover-max-tokens.js';

describe('prepareMaxTokensRecovery', () => {
  it('drops calls whose arguments were cut off and keeps complete ones with the text', () => {
    const message: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'plan', signature: 's' },
        { type: 'text', text: 'Writing two files.' },
        { type: 'tool_call', id: 'c1', name: 'read', args: { path: 'a.ts' } },
        { type: 'tool_call', id: 'c2', name: 'write', args: {}, argsError: 'not valid JSON (cut off)' },
      ],
    };
    const frozen = structuredClone(message);
    const { keep, dropped } = prepareMaxTokensRecovery(message);
    expect(keep.content).toEqual(message.content.slice(0, 3));
    expect(dropped).toEqual([message.content[3]]);
    expect(message).toEqual(frozen);
  });

  it('drops a trailing call with empty arguments, which may have been cut before any arrived', () => {
    const message: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'tool_call', id: 'c1', name: 'todo', args: {} },
        { type: 'text', text: 'now the file' },
        { type: 'tool_call', id: 'c2', name: 'write', args: {} },
      ],
    };
    const { keep, dropped } = prepareMaxTokensRecovery(message);
    expect(keep.content.map((p) => p.type)).toEqual(['tool_call', 'text']);
    expect(dropped.map((c) => c.id)).toEqual(['c2']);
  });

  it('keeps a message without tool calls as it is', () => {
    const message: AssistantMessage = { role: 'assistant', content: [{ type: 'text', text: 'a long answer that was cut' }] };
    expect(prepareMaxTokensRecovery(message)).toEqual({ keep: message, dropped: [] });
  });
});

describe('resume instruction', () => {
  it('asks to continue mid-thought without apology or recap, in smaller pieces', () => {
    expect(MAX_TOKENS_RECOVERIES).toBe(3);
    expect(RESUME_INSTRUCTION).toMatch(/continue exactly where you stopped/i);
    expect(RESUME_INSTRUCTION).toMatch(/no apology/i);
    expect(RESUME_INSTRUCTION).toMatch(/no recap/i);
    expect(RESUME_INSTRUCTION).toMatch(/smaller pieces/i);
    expect(resumeMessage()).toEqual({ role: 'user', content: [{ type: 'text', text: RESUME_INSTRUCTION }] });
  });

  it('names the calls that did not run', () => {
    const text = (resumeMessage([{ type: 'tool_call', id: 'c', name: 'write', args: {}, argsError: 'x' }]).content[0] as { text: string }).text;
    expect(text).toBe(`${RESUME_INSTRUCTION} Your call to write was cut off and did not run; make it again in smaller pieces.`);
  });
});
