import { describe, expect, it } from 'vitest';
import { buildAnthropicMessagesBody } from '../../src/providers/anthropic-messages/build-anthropic-messages-body.js';
import { buildBedrockBody } from '../../src/providers/bedrock/build-bedrock-body.js';
import { buildCohereBody } from '../../src/providers/cohere/build-cohere-body.js';
import { CohereToolNames } from '../../src/providers/cohere/cohere-tool-names.js';
import { TOOL_PLAN_MARK } from '../../src/providers/cohere/convert-to-cohere-messages.js';
import { convertHistoryForModel, type HistoryTarget } from '../../src/providers/convert-history-for-model.js';
import { buildGeminiBody } from '../../src/providers/gemini/build-gemini-body.js';
import type { AssistantMessage, ModelMessage } from '../../src/providers/message.js';
import { buildOpenAIChatBody } from '../../src/providers/openai-chat/build-openai-chat-body.js';
import { convertToOpenAIResponsesMessages } from '../../src/providers/openai-responses/convert-to-openai-responses-messages.js';
import type { ModelRequest } from '../../src/providers/request.js';
import { buildVertexClaudeBody } from '../../src/providers/vertex/build-vertex-claude-body.js';

/**
 * Every wire a model can be reached over, and the two providers that add a path of their
 * own: Vertex serves Claude on the Anthropic wire and Gemini on Gemini's, each under the
 * provider id `vertex`; Copilot speaks openai-chat behind its token exchange.
 */
const VENDORS = ['anthropic-messages', 'openai-chat', 'openai-responses', 'gemini', 'cohere', 'bedrock', 'vertex-claude', 'vertex-gemini', 'copilot'] as const;
type Vendor = (typeof VENDORS)[number];
type Protocol = 'anthropic-messages' | 'openai-chat' | 'openai-responses' | 'gemini' | 'cohere' | 'bedrock';

const targets: Record<Vendor, HistoryTarget> = {
  'anthropic-messages': { protocol: 'anthropic-messages', provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
  'openai-chat': { protocol: 'openai-chat', provider: 'deepseek', modelId: 'deepseek-reasoner' },
  'openai-responses': { protocol: 'openai-responses', provider: 'openai', modelId: 'gpt-5' },
  gemini: { protocol: 'gemini', provider: 'gemini', modelId: 'gemini-2.5-pro' },
  cohere: { protocol: 'cohere', provider: 'cohere', modelId: 'command-a-reasoning-08-2025' },
  bedrock: { protocol: 'bedrock', provider: 'bedrock', modelId: 'us.anthropic.claude-sonnet-4-20250514-v1:0' },
  'vertex-claude': { protocol: 'anthropic-messages', provider: 'vertex', modelId: 'claude-sonnet-4-5@20250929' },
  'vertex-gemini': { protocol: 'gemini', provider: 'vertex', modelId: 'gemini-2.5-pro' },
  copilot: { protocol: 'openai-chat', provider: 'copilot', modelId: 'gpt-4o' },
};
const ref = (t: HistoryTarget): string => `${t.provider}/${t.modelId}`;

/** What each vendor's parser leaves in an assistant message: its reasoning, its opaque data, its id style. */
const SECRETS = [
  'SIG-ANTHROPIC', 'REDACTED-ANTHROPIC', 'ENCRYPTED-RESPONSES', 'rs_item_7', 'fc_item_7', 'GEMINI-THOUGHT-SIG',
  'SIG-BEDROCK', 'REDACTED-BEDROCK', 'SIG-VERTEX-CLAUDE', 'VERTEX-GEMINI-THOUGHT-SIG',
];
/** Cohere's tool plan, a thinking part marked to go back to Cohere as `tool_plan`. */
const COHERE_PLAN = 'I will read config.toml to find the port.';
function assistantFrom(vendor: Vendor): AssistantMessage {
  const model = ref(targets[vendor]);
  switch (vendor) {
    case 'anthropic-messages':
    case 'vertex-claude': {
      const [signature, redacted] = vendor === 'vertex-claude' ? ['SIG-VERTEX-CLAUDE', undefined] : ['SIG-ANTHROPIC', 'REDACTED-ANTHROPIC'];
      const providerProtocol = 'anthropic-messages';
      return {
        role: 'assistant',
        model,
        content: [
          { type: 'thinking', text: 'Read the config first.', signature, providerProtocol },
          ...(redacted === undefined ? [] : [{ type: 'thinking' as const, text: '', redacted, providerProtocol }]),
          { type: 'text', text: 'Reading it.' },
          { type: 'tool_call', id: vendor === 'vertex-claude' ? 'toolu_vrtx_01HvAuZs4zqYf5Ue1AKoWbqJ' : 'toolu_01A09q90qw90lq917835lq9', name: 'read', args: { path: 'config.toml' } },
        ],
      };
    }
    case 'openai-chat':
    case 'copilot':
      return {
        role: 'assistant',
        model,
        content: [
          { type: 'thinking', text: 'Read the config first.', providerProtocol: 'openai-chat' },
          { type: 'text', text: 'Reading it.' },
          { type: 'tool_call', id: vendor === 'copilot' ? 'call_MHxKd2cV8Uu0Hq1bZ7xYkPpW' : 'call_0_4b6e1c2a-8d0f-4f7e-9a1b', name: 'read', args: { path: 'config.toml' } },
        ],
      };
    case 'openai-responses':
      return {
        role: 'assistant',
        model,
        content: [
          { type: 'thinking', text: 'Read the config first.', redacted: 'ENCRYPTED-RESPONSES', providerProtocol: vendor, providerData: { itemId: 'rs_item_7' } },
          { type: 'text', text: 'Reading it.' },
          { type: 'tool_call', id: 'call_Kx9', name: 'read', args: { path: 'config.toml' }, providerData: { itemId: 'fc_item_7' } },
        ],
      };
    case 'gemini':
    case 'vertex-gemini': {
      const signature = vendor === 'vertex-gemini' ? 'VERTEX-GEMINI-THOUGHT-SIG' : 'GEMINI-THOUGHT-SIG';
      return {
        role: 'assistant',
        model,
        content: [
          { type: 'thinking', text: 'Read the config first.', signature, providerProtocol: 'gemini', providerData: { geminiPart: 'functionCall' } },
          { type: 'text', text: 'Reading it.' },
          // Gemini ids made up by the parser may carry characters Anthropic and Bedrock refuse.
          { type: 'tool_call', id: 'call_resp.v1:abc/0', name: 'read', args: { path: 'config.toml' }, providerData: { thoughtSignature: signature } },
        ],
      };
    }
    case 'cohere':
      // A Cohere reasoning model's thinking, then its tool plan (test/fixtures/cohere/e2e-read-tool-call); Cohere sends no text beside tool calls.
      return {
        role: 'assistant',
        model,
        content: [
          { type: 'thinking', text: 'Read the config first.', providerProtocol: vendor },
          { type: 'thinking', text: COHERE_PLAN, providerProtocol: vendor, providerData: { ...TOOL_PLAN_MARK } },
          { type: 'text', text: 'Reading it.' },
          { type: 'tool_call', id: 'read_p1t92w7gfgq7', name: 'read', args: { path: 'config.toml' } },
        ],
      };
    case 'bedrock':
      return {
        role: 'assistant',
        model,
        content: [
          { type: 'thinking', text: 'Read the config first.', signature: 'SIG-BEDROCK', providerProtocol: vendor },
          { type: 'thinking', text: '', redacted: 'REDACTED-BEDROCK', providerProtocol: vendor },
          { type: 'text', text: 'Reading it.' },
          { type: 'tool_call', id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'read', args: { path: 'config.toml' } },
        ],
      };
  }
}

function history(from: Vendor): ModelMessage[] {
  const assistant = assistantFrom(from);
  const call = assistant.content.find((p) => p.type === 'tool_call')!;
  return [
    { role: 'user', content: [{ type: 'text', text: 'What port does the server use?' }] },
    assistant,
    { role: 'tool', content: [{ type: 'tool_result', toolCallId: call.id, toolName: 'read', content: [{ type: 'text', text: 'port = 8080' }] }] },
  ];
}

/** The request body the target's own request builder makes of the history. */
function serialize(to: Vendor, messages: ModelMessage[]): string {
  const request: ModelRequest = { model: targets[to].modelId, system: [{ text: 'Be brief.' }], messages, tools: [] };
  switch (to) {
    case 'anthropic-messages':
      return JSON.stringify(buildAnthropicMessagesBody(request, { defaultMaxTokens: 1024 }));
    case 'vertex-claude':
      return JSON.stringify(buildVertexClaudeBody(request, { defaultMaxTokens: 1024 }));
    case 'openai-chat':
    case 'copilot':
      return JSON.stringify(buildOpenAIChatBody(request, {}));
    case 'openai-responses':
      return JSON.stringify(convertToOpenAIResponsesMessages(request.system, messages));
    case 'gemini':
    case 'vertex-gemini':
      return JSON.stringify(buildGeminiBody(request));
    case 'cohere':
      return JSON.stringify(buildCohereBody(request, new CohereToolNames(['read'])));
    case 'bedrock':
      return JSON.stringify(buildBedrockBody(request, targets.bedrock.modelId));
  }
}

/** Ids each target accepts for a tool call (Anthropic's `tool_use.id` and Bedrock's `toolUseId`: ^[a-zA-Z0-9_-]+$, 64 at most; OpenAI's 64 at most). */
const VALID_ID: Partial<Record<Protocol, RegExp>> = {
  'anthropic-messages': /^[a-zA-Z0-9_-]{1,64}$/,
  bedrock: /^[a-zA-Z0-9_-]{1,64}$/,
  'openai-chat': /^.{1,64}$/,
  'openai-responses': /^.{1,64}$/,
};

describe('history converted for another model', () => {
  for (const from of VENDORS) {
    for (const to of VENDORS) {
      if (from === to) continue;
      it(`${from} → ${to}: reasoning as plain text, no foreign signatures or vendor data, ids valid and matched`, () => {
        const converted = convertHistoryForModel(history(from), targets[to]);
        const assistant = converted[1] as AssistantMessage;
        expect(assistant.content.filter((p) => p.type === 'thinking')).toEqual([]);
        expect(assistant.content[0]).toEqual({ type: 'text', text: '<thinking>\nRead the config first.\n</thinking>' });
        const call = assistant.content.find((p) => p.type === 'tool_call')!;
        expect(call).not.toHaveProperty('providerData');
        expect(call.id).toMatch(VALID_ID[targets[to].protocol as Protocol] ?? /./);
        const result = converted[2]!.content[0] as { toolCallId: string };
        expect(result.toolCallId).toBe(call.id);

        // Cohere's tool plan is reasoning about the calls: another vendor reads it as such, never as Cohere's `tool_plan` field.
        if (from === 'cohere') expect(assistant.content[1]).toEqual({ type: 'text', text: `<thinking>\n${COHERE_PLAN}\n</thinking>` });

        const body = serialize(to, converted);
        for (const secret of SECRETS) expect(body).not.toContain(secret);
        expect(body).toContain('Read the config first.');
        expect(body).toContain('port = 8080');
        if (to !== 'cohere') expect(body).not.toContain('tool_plan');
        if (to === 'bedrock') expect(body).not.toContain('reasoningContent');
        if (to === 'cohere') {
          // Cohere takes an assistant's words beside its tool calls only as `tool_plan`, and another vendor's reasoning never as `thinking`.
          const turn = JSON.parse(body).messages.find((m: { role: string }) => m.role === 'assistant');
          expect(turn).toEqual({
            role: 'assistant',
            tool_plan: ['<thinking>\nRead the config first.\n</thinking>', 'Reading it.'].join('\n\n'),
            tool_calls: [{ id: call.id, type: 'function', function: { name: 'read', arguments: '{"path":"config.toml"}' } }],
          });
        }
      });
    }
  }

  it.each(VENDORS)('%s → the same model: the history passes unchanged, signatures and all', (protocol) => {
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

  it.each(['anthropic-messages', 'bedrock'] as const)('%s: an id rewritten earlier never takes the spelling of a later id that needed no rewrite', (to) => {
    const messages: ModelMessage[] = [
      { role: 'assistant', model: 'gemini/gemini-2.5-pro', content: [{ type: 'tool_call', id: 'a.b', name: 'read', args: {} }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'a.b', toolName: 'read', content: [{ type: 'text', text: '1' }] }] },
      { role: 'assistant', model: 'deepseek/deepseek-reasoner', content: [{ type: 'tool_call', id: 'a_b', name: 'read', args: {} }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'a_b', toolName: 'read', content: [{ type: 'text', text: '2' }] }] },
    ];
    const converted = convertHistoryForModel(messages, targets[to]);
    const callIds = [converted[0]!, converted[2]!].map((m) => (m.content[0] as { id: string }).id);
    const resultIds = [converted[1]!, converted[3]!].map((m) => (m.content[0] as { toolCallId: string }).toolCallId);
    expect(new Set(callIds).size).toBe(2);
    expect(resultIds).toEqual(callIds);
    for (const id of callIds) expect(id).toMatch(VALID_ID[to]!);
  });

  it('an id a server reuses in every turn (no rewrite needed) stays as it is, each result with its call', () => {
    const turn = (text: string): ModelMessage[] => [
      { role: 'assistant', model: 'local/qwen3', content: [{ type: 'tool_call', id: 'call_0', name: 'read', args: {} }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_0', toolName: 'read', content: [{ type: 'text', text }] }] },
    ];
    const messages = [...turn('1'), ...turn('2')];
    expect(convertHistoryForModel(messages, targets.bedrock).map((m) => m.content.map((p) => (p as { id?: string }).id ?? (p as { toolCallId: string }).toolCallId))).toEqual([['call_0'], ['call_0'], ['call_0'], ['call_0']]);
  });

  it('a history checked once for one model is checked again for another: a tool message passing to one is rewritten for the next', () => {
    const messages: ModelMessage[] = [
      { role: 'assistant', model: 'local/qwen3', content: [{ type: 'tool_call', id: 'call.1', name: 'read', args: {} }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call.1', toolName: 'read', content: [{ type: 'text', text: '1' }] }] },
    ];
    const own = convertHistoryForModel(messages, { protocol: 'openai-chat', provider: 'local', modelId: 'qwen3' });
    own.forEach((message, i) => expect(message).toBe(messages[i]));
    // The same message objects, now to the same model ref spoken over Anthropic's protocol (no dots in ids), then back.
    const other = convertHistoryForModel(messages, { protocol: 'anthropic-messages', provider: 'local', modelId: 'qwen3' });
    expect((other[0]!.content[0] as { id: string }).id).toBe('call_1');
    expect((other[1]!.content[0] as { toolCallId: string }).toolCallId).toBe('call_1');
    expect(convertHistoryForModel(messages, { protocol: 'openai-chat', provider: 'local', modelId: 'qwen3' })).toEqual(own);
  });

  it('a session history sent again and again: what was added or changed since is still checked, for each model apart', () => {
    const own = targets.gemini;
    const prompt: ModelMessage = { role: 'user', content: [{ type: 'text', text: 'go' }] };
    const history: ModelMessage[] = [prompt, assistantFrom('gemini')];
    expect(convertHistoryForModel(history, own)).toEqual(history);
    // Grown by another model's message: that one is converted, the earlier ones pass as they are.
    history.push(assistantFrom('anthropic-messages'));
    const grown = convertHistoryForModel(history, own);
    expect(grown[1]).toBe(history[1]);
    expect(JSON.stringify(grown[2])).not.toContain('SIG-ANTHROPIC');
    // The caller's array changed in place after a call that passed it: the changed message is checked.
    const reused: ModelMessage[] = [prompt, assistantFrom('gemini')];
    expect(convertHistoryForModel(reused, own)).toEqual(reused);
    reused[1] = assistantFrom('openai-responses');
    expect(JSON.stringify(convertHistoryForModel(reused, own))).not.toContain('ENCRYPTED-RESPONSES');
    // The same messages, passed for one model, are checked again for another.
    const mine: ModelMessage[] = [prompt, assistantFrom('gemini')];
    expect(convertHistoryForModel(mine, own)).toEqual(mine);
    expect(JSON.stringify(convertHistoryForModel(mine, targets['openai-chat']))).not.toContain('GEMINI-THOUGHT-SIG');
  });

  it('a stored message without its model is judged by its reasoning: same protocol passes, another is converted', () => {
    const { model: _model, ...unknown } = assistantFrom('gemini');
    expect(convertHistoryForModel([unknown], targets.gemini)).toEqual([unknown]);
    expect(JSON.stringify(convertHistoryForModel([unknown], targets['openai-chat']))).not.toContain('GEMINI-THOUGHT-SIG');
  });
});
