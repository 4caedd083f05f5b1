import { describe, expect, it } from 'vitest';
import { isMalformedToolCall, normalizeToolCall, UNNAMED_TOOL_CALL } from '../../src/loop/normalize-tool-call.js';

describe('normalizeToolCall', () => {
  it('returns a well-formed call as it is', () => {
    const call = { id: 'c1', name: 'read', args: { path: 'a' }, providerData: { thoughtSignature: 's' } };
    expect(isMalformedToolCall(call)).toBe(false);
    expect(normalizeToolCall(call)).toEqual({ type: 'tool_call', ...call });
  });

  it('names a call without a name and says so', () => {
    for (const name of [undefined, '', null, 7]) {
      const call = normalizeToolCall({ id: 'c1', name, args: { path: 'a' } });
      expect(call).toEqual({ type: 'tool_call', id: 'c1', name: UNNAMED_TOOL_CALL, args: { path: 'a' }, argsError: 'the call has no tool name' });
    }
  });

  it('replaces arguments that are not an object and says what they were', () => {
    expect(normalizeToolCall({ id: 'c1', name: 'read', args: ['a', 1] })).toEqual({
      type: 'tool_call',
      id: 'c1',
      name: 'read',
      args: {},
      argsError: 'the arguments are not a JSON object: ["a",1]',
    });
    expect(normalizeToolCall({ id: 'c1', name: 'read', args: 'a.ts' }).argsError).toBe('the arguments are not a JSON object: "a.ts"');
    expect(normalizeToolCall({ id: 'c1', args: null }).argsError).toBe('the call has no tool name; the arguments are not a JSON object: null');
  });

  it('keeps the parser’s own reason, and reads missing arguments as none', () => {
    expect(normalizeToolCall({ id: 'c1', name: 'read', args: {}, argsError: 'cut off' }).argsError).toBe('cut off');
    const none = normalizeToolCall({ id: 'c1', name: 'now' });
    expect(none).toEqual({ type: 'tool_call', id: 'c1', name: 'now', args: {} });
    expect(isMalformedToolCall({ id: 'c1', name: 'now' })).toBe(true);
  });

  it('gives a call without an id one of its own', () => {
    expect(normalizeToolCall({ name: 'read', args: {} }).id).toMatch(/^call_[0-9a-f-]{36}$/);
  });
});
