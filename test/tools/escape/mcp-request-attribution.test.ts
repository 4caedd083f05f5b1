import { describe, expect, it } from 'vitest';
import { attributeServerRequest } from '../../../src/tools/mcp/attribute-server-request.js';
import type { ToolContext } from '../../../src/tools/tool.js';

/** A call in flight: only its session and id matter to attribution. */
const call = (sessionId: string, toolCallId: string): ToolContext => ({ sessionId, toolCallId }) as ToolContext;

describe('F8 attributing an MCP server\'s request to a session', () => {
  it.each([
    ['one call of one session', [call('s1', 'c1')], 'c1'],
    ['two calls of the same session (its latest answers)', [call('s1', 'c1'), call('s1', 'c2')], 'c2'],
  ])('F8 %s: attributed', (_what, inFlight, callId) => {
    const attribution = attributeServerRequest('srv', inFlight, 'sampling/createMessage');
    expect('call' in attribution && attribution.call.toolCallId).toBe(callId);
  });

  it.each([
    ['no call in flight', [], /no tool call to MCP server "srv" is running/],
    ['calls of two sessions, latest last', [call('s1', 'c1'), call('s2', 'c2')], /tool calls of 2 sessions/],
    ['calls of two sessions, one with two calls', [call('s1', 'c1'), call('s2', 'c2'), call('s1', 'c3')], /tool calls of 2 sessions/],
    ['calls of three sessions', [call('s1', 'c1'), call('s2', 'c2'), call('s3', 'c3')], /tool calls of 3 sessions/],
    // A sub-agent is a session of its own: its call beside its parent's is not the parent's.
    ['a parent\'s call and its sub-agent\'s', [call('parent', 'c1'), call('child', 'c2')], /tool calls of 2 sessions/],
  ])('F8 %s: refused, never guessed', (_what, inFlight, why) => {
    const attribution = attributeServerRequest('srv', inFlight, 'sampling/createMessage');
    expect(attribution).not.toHaveProperty('call');
    const { refusal } = attribution as { refusal: string };
    expect(refusal).toMatch(/^cannot tell which session this request belongs to; /);
    expect(refusal).toMatch(why);
    expect(refusal).toContain('refuses sampling/createMessage rather than guess');
  });
});
