import { describe, expect, it } from 'vitest';
import { buildAnthropicMessagesBody } from '../../../src/providers/anthropic-messages/build-anthropic-messages-body.js';
import { buildCohereBody } from '../../../src/providers/cohere/build-cohere-body.js';
import { CohereToolNames } from '../../../src/providers/cohere/cohere-tool-names.js';
import { convertHistoryForModel, type HistoryTarget } from '../../../src/providers/convert-history-for-model.js';
import { buildGeminiBody } from '../../../src/providers/gemini/build-gemini-body.js';
import type { AssistantMessage, ModelMessage } from '../../../src/providers/message.js';
import { buildOpenAIChatBody } from '../../../src/providers/openai-chat/build-openai-chat-body.js';
import { convertToOpenAIResponsesMessages } from '../../../src/providers/openai-responses/convert-to-openai-responses-messages.js';
import type { ModelRequest } from '../../../src/providers/request.js';

const OTHERS = ['anthropic-messages', 'openai-chat', 'openai-responses', 'gemini'] as const;
type Other = (typeof OTHERS)[number];

const cohere: HistoryTarget = { protocol: 'cohere', provider: 'cohere', modelId: 'command-a-03-2025' };
const targets: Record<Other, HistoryTarget> = {
  'anthropic-messages': { protocol: 'anthropic-messages', provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
  'openai-chat': { protocol: 'openai-chat', provider: 'deepseek', modelId: 'deepseek-reasoner' },
  'openai-responses': { protocol: 'openai-responses', provider: 'openai', modelId: 'gpt-5' },
  gemini: { protocol: 'gemini', provider: 'google', modelId: 'gemini-2.5-pro' },
};
const ref = (t: HistoryTarget): string => `${t.provider}/${t.modelId}`;

/** What each vendor's parser leaves in an assistant message that must not reach another vendor. */
const SECRETS = ['SIG-ANTHROPIC', 'ENCRYPTED-RESPONSES', 'rs_item_7', 'GEMINI-THOUGHT-SIG', 'tool_plan"'];

function toolTurn(assistant: AssistantMessage): ModelMessage[] {
  const call = assistant.content.find((p) => p.type === 'tool_call')!;
  return [
    { role: 'user', content: [{ type: 'text', text: 'What port does the server use?' }] },
    assistant,
    { role: 'tool', content: [{ type: 'tool_result', toolCallId: call.id, toolName: 'read', content: [{ type: 'text', text: 'port = 8080' }] }] },
    { role: 'assistant', model: assistant.model, content: [{ type: 'text', text: 'Port 8080.' }] },
    { role: 'user', content: [{ type: 'text', text: 'And the host?' }] },
  ];
}

/** A Cohere answer as parse-cohere-stream leaves it: the plan marked as such, the call with Cohere's id. */
const fromCohere: AssistantMessage = {
  role: 'assistant',
  model: ref(cohere),
  content: [
    { type: 'thinking', text: 'I will read config.toml.', providerProtocol: 'cohere', providerData: { cohere: 'tool_plan' } },
    { type: 'tool_call', id: 'read_p1t92w7gfgq7', name: 'read', args: { path: 'config.toml' } },
  ],
};

function fromOther(protocol: Other): AssistantMessage {
  const model = ref(targets[protocol]);
  const thinking = {
    'anthropic-messages': { signature: 'SIG-ANTHROPIC' },
    'openai-chat': {},
    'openai-responses': { redacted: 'ENCRYPTED-RESPONSES', providerData: { itemId: 'rs_item_7' } },
    gemini: { signature: 'GEMINI-THOUGHT-SIG' },
  }[protocol];
  const id = { 'anthropic-messages': 'toolu_01A09q90qw90lq917835lq9', 'openai-chat': 'call_0_4b6e', 'openai-responses': 'call_Kx9', gemini: 'call_resp.v1:abc/0' }[protocol];
  return {
    role: 'assistant',
    model,
    content: [
      { type: 'thinking', text: 'Read the config first.', providerProtocol: protocol, ...thinking },
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_call', id, name: 'read', args: { path: 'config.toml' }, ...(protocol === 'gemini' ? { providerData: { thoughtSignature: 'GEMINI-THOUGHT-SIG' } } : {}) },
    ],
  };
}

function serialize(to: Other, messages: ModelMessage[]): string {
  const request: ModelRequest = { model: targets[to].modelId, system: [{ text: 'Be brief.' }], messages, tools: [] };
  switch (to) {
    case 'anthropic-messages':
      return JSON.stringify(buildAnthropicMessagesBody(request, { defaultMaxTokens: 1024 }));
    case 'openai-chat':
      return JSON.stringify(buildOpenAIChatBody(request, {}));
    case 'openai-responses':
      return JSON.stringify(convertToOpenAIResponsesMessages(request.system, messages));
    case 'gemini':
      return JSON.stringify(buildGeminiBody(request));
  }
}

const cohereBody = (messages: ModelMessage[]) =>
  buildCohereBody({ model: cohere.modelId, system: [{ text: 'Be brief.' }], messages, tools: [] }, new CohereToolNames());

describe('a session that switches to and from Cohere', () => {
  it.each(OTHERS)('%s → cohere: reasoning as text in the plan, no foreign signatures, the call and its result matched', (from) => {
    const body = cohereBody(convertHistoryForModel(toolTurn(fromOther(from)), cohere));
    const text = JSON.stringify(body);
    for (const secret of SECRETS.slice(0, 4)) expect(text).not.toContain(secret);
    const assistant = body.messages[2] as { role: string; tool_plan?: string; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> };
    expect(assistant.role).toBe('assistant');
    expect(assistant.tool_plan).toBe('<thinking>\nRead the config first.\n</thinking>\n\nReading it.');
    expect(assistant.tool_calls?.map((c) => c.function)).toEqual([{ name: 'read', arguments: '{"path":"config.toml"}' }]);
    const result = body.messages[3] as { role: string; tool_call_id: string; content: unknown };
    expect(result).toEqual({ role: 'tool', tool_call_id: assistant.tool_calls?.[0]?.id, content: [{ type: 'text', text: 'port = 8080' }] });
    expect(body.messages.slice(4)).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'Port 8080.' }] },
      { role: 'user', content: 'And the host?' },
    ]);
  });

  it.each(OTHERS)('cohere → %s: the plan as plain text, no Cohere markers, ids kept and matched', (to) => {
    const converted = convertHistoryForModel(toolTurn(fromCohere), targets[to]);
    const assistant = converted[1] as AssistantMessage;
    expect(assistant.content[0]).toEqual({ type: 'text', text: '<thinking>\nI will read config.toml.\n</thinking>' });
    const call = assistant.content.find((p) => p.type === 'tool_call')!;
    expect(call.id).toBe('read_p1t92w7gfgq7');
    expect((converted[2]!.content[0] as { toolCallId: string }).toolCallId).toBe(call.id);
    const body = serialize(to, converted);
    expect(body).not.toContain('tool_plan');
    expect(body).toContain('I will read config.toml.');
    expect(body).toContain('port = 8080');
  });

  it('cohere → the same model: the plan goes back as tool_plan and a reasoning model\'s thinking as thinking content', () => {
    const messages = toolTurn({
      ...fromCohere,
      content: [{ type: 'thinking', text: 'The config says where.', providerProtocol: 'cohere' }, ...fromCohere.content],
    });
    expect(convertHistoryForModel(messages, cohere)).toEqual(messages);
    expect(cohereBody(messages).messages[2]).toEqual({
      role: 'assistant',
      content: [{ type: 'thinking', thinking: 'The config says where.' }],
      tool_plan: 'I will read config.toml.',
      tool_calls: [{ id: 'read_p1t92w7gfgq7', type: 'function', function: { name: 'read', arguments: '{"path":"config.toml"}' } }],
    });
  });

  it('another Cohere model gets the first model\'s reasoning as text, never as its own thinking', () => {
    const other: HistoryTarget = { ...cohere, modelId: 'command-a-reasoning-08-2025' };
    const body = cohereBody(convertHistoryForModel(toolTurn(fromCohere), other));
    expect(body.messages[2]).toMatchObject({ role: 'assistant', tool_plan: '<thinking>\nI will read config.toml.\n</thinking>' });
    expect(JSON.stringify(body)).not.toContain('"type":"thinking"');
  });

  it('gives a call without an id one Cohere can take, in the call and its result alike', () => {
    const assistant: AssistantMessage = { role: 'assistant', model: 'local/x', content: [{ type: 'tool_call', id: '', name: 'read', args: {} }] };
    const body = cohereBody(convertHistoryForModel(toolTurn(assistant), cohere));
    expect(body.messages[2]).toMatchObject({ tool_calls: [{ id: 'call' }] });
    expect(body.messages[3]).toMatchObject({ role: 'tool', tool_call_id: 'call' });
  });
});
