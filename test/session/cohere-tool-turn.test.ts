import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadFixture } from '../support/load-fixture.js';
import { startLoopHarness, type LoopHarness } from '../support/loop-harness.js';

/** A Cohere tool-using turn through the whole daemon, against recorded-shape Cohere streams on loopback. */
describe('a Cohere tool-using turn', () => {
  let h: LoopHarness;
  afterEach(async () => h.close());

  it('runs the streamed tool call, sends plan, call and result back in Cohere form, and shows the citation as a source list', async () => {
    h = await startLoopHarness({ providers: { local: { type: 'cohere', baseUrl: '{REPLAY}', apiKey: 'co-test-key-0000' } } });
    writeFileSync(join(h.workspace, 'notes.txt'), 'the build is green\n');
    h.replay.enqueue({ body: loadFixture('cohere', 'e2e-read-tool-call').bytes });
    h.replay.enqueue({ body: loadFixture('cohere', 'e2e-answer-citing-the-tool').bytes });

    expect(await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'What does notes.txt say?' }] })).toEqual({ stopReason: 'end_turn' });

    // The plan is shown as the model's thought, not as answer text.
    const thought = h.peer.updates(h.sessionId).filter((u) => u.sessionUpdate === 'agent_thought_chunk').map((u) => u.content.text).join('');
    expect(thought).toBe('I will read notes.txt.');
    // The user reads the answer, then the sources, as text.
    expect(h.peer.agentText(h.sessionId)).toBe('The note says the build is green.\n\nSources:\n[1] "green" — tool result read_p1t92w7gfgq7:0');

    const first = h.replay.requests[0];
    expect(first?.path).toBe('/v2/chat');
    expect(first?.headers['authorization']).toBe('Bearer co-test-key-0000');
    const firstBody = first?.body as { model: string; stream: boolean; tools: Array<{ type: string; function: { name: string } }> };
    expect(firstBody.model).toBe('e2e-model');
    expect(firstBody.stream).toBe(true);
    expect(firstBody.tools.every((tool) => tool.type === 'function')).toBe(true);
    expect(firstBody.tools.map((tool) => tool.function.name)).toContain('read');

    // The second request carries the plan, the call and its result the way Cohere's docs show them.
    const messages = (h.replay.requests[1]?.body as { messages: Array<Record<string, unknown>> }).messages;
    const assistant = messages.find((m) => m.role === 'assistant');
    expect(assistant).toEqual({
      role: 'assistant',
      tool_plan: 'I will read notes.txt.',
      tool_calls: [{ id: 'read_p1t92w7gfgq7', type: 'function', function: { name: 'read', arguments: '{"path":"notes.txt"}' } }],
    });
    const result = messages.find((m) => m.role === 'tool') as { tool_call_id: string; content: Array<{ type: string; text: string }> };
    expect(result.tool_call_id).toBe('read_p1t92w7gfgq7');
    expect(result.content).toHaveLength(1);
    expect(result.content[0]?.type).toBe('text');
    expect(result.content[0]?.text).toContain('the build is green');
  });
});
