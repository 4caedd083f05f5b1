import { afterEach, describe, expect, it } from 'vitest';
import { loadFixture } from '../support/load-fixture.js';
import { startLoopHarness, type LoopHarness } from '../support/loop-harness.js';

/** Recorded stream shapes, through the whole daemon: what the user sees and what goes back to the vendor. */
describe('provider stream shapes in a session', () => {
  let h: LoopHarness;
  afterEach(async () => h.close());

  it('Anthropic server-tool blocks are sent back unchanged on the next turn, the text around them kept apart', async () => {
    h = await startLoopHarness({ providers: { local: { type: 'anthropic-messages', baseUrl: '{REPLAY}', apiKey: 'sk-ant-test-key-0000' } } });
    h.replay.enqueue({ body: loadFixture('anthropic-messages', 'web-search-between-text-blocks').bytes });
    h.replay.enqueue({ body: loadFixture('anthropic-messages', 'text-only').bytes });
    await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'Weather in Paris?' }] });
    // The user reads the three text blocks apart, not run together.
    expect(h.peer.agentText(h.sessionId)).toBe("I'll search for today's weather in Paris.\n\nHere is today's weather in Paris:\n\nCloudy, with a high of 11°C.");
    await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'And tomorrow?' }] });

    // A client loading the session reads the same words, separators included.
    const watcher = h.daemon.connect();
    await watcher.call('initialize', { protocolVersion: 1, clientCapabilities: {} });
    await watcher.call('session/load', { sessionId: h.sessionId, cwd: h.workspace, mcpServers: [] });
    expect(watcher.agentText(h.sessionId)).toBe(h.peer.agentText(h.sessionId));

    const second = h.replay.requests[1]?.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    const answer = second.messages[1];
    expect(answer?.role).toBe('assistant');
    expect(answer?.content.map((block) => block.type)).toEqual(['text', 'server_tool_use', 'web_search_tool_result', 'text', 'text']);
    expect(answer?.content[1]).toEqual({ type: 'server_tool_use', id: 'srvtoolu_014hJH82Qum7Td6UV8gDXThB', name: 'web_search', input: { query: 'weather Paris today' } });
    expect(answer?.content[2]).toMatchObject({ type: 'web_search_tool_result', tool_use_id: 'srvtoolu_014hJH82Qum7Td6UV8gDXThB' });
    expect(answer?.content[4]).toEqual({ type: 'text', text: 'Cloudy, with a high of 11°C.' });
  });

  it('a Responses item agentd does not run is told to the user as a warning, not dropped in silence', async () => {
    h = await startLoopHarness({ providers: { local: { type: 'openai-responses', baseUrl: '{REPLAY}/v1' } } });
    h.replay.enqueue({ body: loadFixture('openai-responses', 'unhandled-output-items').bytes });
    expect(await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'patch a.ts' }] })).toEqual({ stopReason: 'end_turn' });
    const notices = h.peer.received
      .filter((m) => m.method === 'agentd/event' && m.params.event.type === 'notice')
      .map((m) => ({ level: m.params.event.level, message: m.params.event.message }));
    expect(notices).toEqual([
      { level: 'warning', message: 'The model sent an output item agentd does not run: custom_tool_call "apply_patch". It was ignored; only function tools are carried out.' },
      { level: 'warning', message: 'The model sent an output item agentd does not run: shell_call. It was ignored; only function tools are carried out.' },
      { level: 'warning', message: 'The model sent an output item agentd does not run: mcp_approval_request "create_issue". It was ignored; only function tools are carried out.' },
    ]);
  });

  const notices = (): Array<{ level: string; message: string }> =>
    h.peer.received
      .filter((m) => m.method === 'agentd/event' && m.params.event.type === 'notice')
      .map((m) => ({ level: m.params.event.level, message: m.params.event.message }));

  it.each([
    {
      protocol: 'openai-responses',
      scenario: 'tool-search-then-function-call',
      provider: { type: 'openai-responses', baseUrl: '{REPLAY}/v1' },
      warnings: [],
    },
    {
      protocol: 'openai-responses',
      scenario: 'hosted-tool-items-and-unknown-events',
      provider: { type: 'openai-responses', baseUrl: '{REPLAY}/v1' },
      warnings: ['The model sent an output item agentd does not run: hologram_call. It was ignored; only function tools are carried out.'],
    },
    {
      protocol: 'anthropic-messages',
      scenario: 'server-tools-citations-and-unknown-blocks',
      provider: { type: 'anthropic-messages', baseUrl: '{REPLAY}', apiKey: 'sk-ant-test-key-0000' },
      warnings: ['The model sent a content block agentd does not read: hologram. It was ignored.'],
    },
    {
      protocol: 'gemini',
      scenario: 'code-execution-grounding-and-unknown-parts',
      provider: { type: 'gemini', baseUrl: '{REPLAY}', apiKey: 'AIzaSyReplayTestKey000000000000000000' },
      warnings: ['The model sent a part agentd does not read: inlineData. It was ignored.'],
    },
    { protocol: 'openai-chat', scenario: 'extra-fields-and-empty-choices', provider: {}, warnings: [] },
  ])('$protocol $scenario ends the turn normally, what agentd does not read told as warnings', async ({ protocol, scenario, provider, warnings }) => {
    h = await startLoopHarness({ providers: { local: provider } });
    h.replay.enqueue({ body: loadFixture(protocol, scenario).bytes });
    const callsATool = scenario === 'tool-search-then-function-call';
    // The function call the tool search found is answered (an unknown tool here) and the model asked again.
    if (callsATool) h.replay.enqueue({ body: loadFixture(protocol, 'text-basic').bytes });
    expect(await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'When does Node 20 end?' }] })).toEqual({ stopReason: 'end_turn' });
    expect(notices()).toEqual(warnings.map((message) => ({ level: 'warning', message })));
    expect(h.replay.requests.length).toBe(callsATool ? 2 : 1);
    if (callsATool) {
      const input = (h.replay.requests[1]?.body as { input: Array<Record<string, unknown>> }).input;
      expect(input.filter((item) => item.type !== undefined).map((item) => [item.type, item.call_id])).toEqual([
        ['function_call', 'call_22event'],
        ['function_call_output', 'call_22event'],
      ]);
    }
  });
});
