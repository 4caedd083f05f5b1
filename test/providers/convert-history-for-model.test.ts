import { describe, expect, it } from 'vitest';
import { buildAnthropicMessagesBody } from '../../src/providers/anthropic-messages/build-anthropic-messages-body.js';
import { convertHistoryForModel, type HistoryTarget } from '../../src/providers/convert-history-for-model.js';
import { buildGeminiBody } from '../../src/providers/gemini/build-gemini-body.js';
import type { AssistantMessage, ModelMessage } from '../../src/providers/message.js';
import { buildOpenAIChatBody } from '../../src/providers/openai-chat/build-openai-chat-body.js';
import { convertToOpenAIResponsesMessages } from '../../src/providers/openai-responses/convert-to-openai-responses-messages.js';
import type { ModelRequest } from '../../src/providers/request.js';

const PROTOCOLS = ['anthropic-messages', 'openai-chat', 'openai-responses', 'gemini'] as const;
type Protocol = (typeof PROTOCOLS)[number];

const targets: Record<Protocol, HistoryTarget> = {
  'anthropic-messages': { protocol: 'anthropic-messages', provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
  'openai-chat': { protocol: 'openai-chat', provider: 'deepseek', modelId: 'deepseek-reasoner' },
  'openai-responses': { protocol: 'openai-responses', provider: 'openai', modelId: 'gpt-5' },
  gemini: { protocol: 'gemini', provider: 'gemini', modelId: 'gemini-2.5-pro' },
};
const ref = (t: HistoryTarget): string => `${t.provider}/${t.modelId}`;

/** What each vendor's parser leaves in an assistant message: its reasoning, its opaque data, its id style. */
const SECRETS = ['SIG-ANTHROPIC', 'REDACTED-ANTHROPIC', 'ENCRYPTED-RESPONSES', 'rs_item_7', 'fc_item_7', 'GEMINI-THOUGHT-SIG'];
function assistantFrom(protocol: Protocol): AssistantMessage {
  const model = ref(targets[protocol]);
  switch (protocol) {
    case 'anthropic-messages':
      return {
        role: 'assistant',
        model,
        content: [
          { type: 'thinking', text: 'Read the config first.', signature: 'SIG-ANTHROPIC', providerProtocol: protocol },
          { type: 'thinking', text: '', redacted: 'REDACTED-ANTHROPIC', providerProtocol: protocol },
          { type: 'text', text: 'Reading it.' },
          { type: 'tool_call', id: 'toolu_01A09q90qw90lq917835lq9', name: 'read', args: { path: 'config.toml' } },
        ],
      };
    case 'openai-chat':
      return {
        role: 'assistant',
        model,
        content: [
          { type: 'thinking', text: 'Read the config first.', providerProtocol: protocol },
          { type: 'text', text: 'Reading it.' },
          { type: 'tool_call', id: 'call_0_4b6e1c2a-8d0f-4f7e-9a1b', name: 'read', args: { path: 'config.toml' } },
        ],
      };
    case 'openai-responses':
      return {
        role: 'assistant',
        model,
        content: [
          { type: 'thinking', text: 'Read the config first.', redacted: 'ENCRYPTED-RESPONSES', providerProtocol: protocol, providerData: { itemId: 'rs_item_7' } },
          { type: 'text', text: 'Reading it.' },
          { type: 'tool_call', id: 'call_Kx9', name: 'read', args: { path: 'config.toml' }, providerData: { itemId: 'fc_item_7' } },
        ],
      };
    case 'gemini':
      return {
        role: 'assistant',
        model,
        content: [
          { type: 'thinking', text: 'Read the config first.', signature: 'GEMINI-THOUGHT-SIG', providerProtocol: protocol, providerData: { geminiPart: 'functionCall' } },
          { type: 'text', text: 'Reading it.' },
          // Gemini ids made up by the parser may carry characters Anthropic refuses.
          { type: 'tool_call', id: 'call_resp.v1:abc/0', name: 'read', args: { path: 'config.toml' }, providerData: { thoughtSignature: 'GEMINI-THOUGHT-SIG' } },
        ],
      };
  }
}

function history(from: Protocol): ModelMessage[] {
  const assistant = assistantFrom(from);
  const call = assistant.content.find((p) => p.type === 'tool_call')!;
  return [
    { role: 'user', content: [{ type: 'text', text: 'What port does the server use?' }] },
    assistant,
    { role: 'tool', content: [{ type: 'tool_result', toolCallId: call.id, toolName: 'read', content: [{ type: 'text', text: 'port = 8080' }] }] },
  ];
}

/** The request body the target's own request builder makes of the history. */
function serialize(to: Protocol, messages: ModelMessage[]): string {
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

describe('history converted for another model', () => {
  for (const from of PROTOCOLS) {
    for (const to of PROTOCOLS) {
      if (from === to) continue;
      it(`${from} → ${to}: reasoning as plain text, no foreign signatures or vendor data, ids valid and matched`, () => {
        const converted = convertHistoryForModel(history(from), targets[to]);
        const assistant = converted[1] as AssistantMessage;
        expect(assistant.content.filter((p) => p.type === 'thinking')).toEqual([]);
        expect(assistant.content[0]).toEqual({ type: 'text', text: '<thinking>\nRead the config first.\n</thinking>' });
        const call = assistant.content.find((p) => p.type === 'tool_call')!;
        expect(call).not.toHaveProperty('providerData');
        if (to === 'anthropic-messages') expect(call.id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
        const result = converted[2]!.content[0] as { toolCallId: string };
        expect(result.toolCallId).toBe(call.id);

        const body = serialize(to, converted);
        for (const secret of SECRETS) expect(body).not.toContain(secret);
        expect(body).toContain('Read the config first.');
        expect(body).toContain('port = 8080');
      });
    }
  }

  it.each(PROTOCOLS)('%s → the same model: the history passes unchanged, signatures and all', (protocol) => {
    const messages = history(protocol);
    expect(convertHistoryForModel(messages, targets[protocol])).toEqual(messages);
  });

  it('another model of the same vendor gets the reasoning as text, never the signature made for the first', () => {
    const converted = convertHistoryForModel(history('anthropic-messages'), { protocol: 'anthropic-messages', provider: 'anthropic', modelId: 'claude-haiku-4-5' });
    const body = serialize('anthropic-messages', converted);
    expect(body).not.toContain('SIG-ANTHROPIC');
    expect(body).not.toContain('REDACTED-ANTHROPIC');
    expect(body).toContain('<thinking>');
  });

  it('keeps two ids apart that would spell the same for Anthropic', () => {
    const messages: ModelMessage[] = [
      { role: 'assistant', model: 'gemini/gemini-2.5-pro', content: [
        { type: 'tool_call', id: 'a.b', name: 'read', args: {} },
        { type: 'tool_call', id: 'a:b', name: 'read', args: {} },
      ] },
      { role: 'tool', content: [
        { type: 'tool_result', toolCallId: 'a.b', toolName: 'read', content: [{ type: 'text', text: '1' }] },
        { type: 'tool_result', toolCallId: 'a:b', toolName: 'read', content: [{ type: 'text', text: '2' }] },
      ] },
    ];
    const converted = convertHistoryForModel(messages, targets['anthropic-messages']);
    const ids = (converted[0] as AssistantMessage).content.map((p) => (p as { id: string }).id);
    expect(new Set(ids).size).toBe(2);
    expect(converted[1]!.content.map((r) => (r as { toolCallId: string }).toolCallId)).toEqual(ids);
  });

  it('a stored message without its model is judged by its reasoning: same protocol passes, another is converted', () => {
    const { model: _model, ...unknown } = assistantFrom('gemini');
    expect(convertHistoryForModel([unknown], targets.gemini)).toEqual([unknown]);
    expect(JSON.stringify(convertHistoryForModel([unknown], targets['openai-chat']))).not.toContain('GEMINI-THOUGHT-SIG');
  });
});
