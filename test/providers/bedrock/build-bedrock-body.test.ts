import { describe, expect, it } from 'vitest';
import { buildBedrockBody } from '../../../src/providers/bedrock/build-bedrock-body.js';
import { convertHistoryForModel } from '../../../src/providers/convert-history-for-model.js';
import type { ModelMessage } from '../../../src/providers/message.js';
import type { ModelRequest } from '../../../src/providers/request.js';

// Shapes from the Converse API reference: Message, ContentBlock (text, image with
// format and source.bytes, toolUse, toolResult with status, reasoningContent with
// reasoningText {text, signature} or redactedContent), SystemContentBlock, ToolConfiguration
// (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html).
const CLAUDE = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function request(messages: ModelMessage[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model: CLAUDE, system: [{ text: 'You are terse.' }, { text: '' }], messages, tools: [], ...extra };
}

describe('buildBedrockBody', () => {
  it('sends text, images, tool calls and their results, merging roles so they alternate', () => {
    const body = buildBedrockBody(
      request(
        [
          { role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image', data: PNG, mimeType: 'image/png' }] },
          { role: 'assistant', content: [{ type: 'text', text: ' ' }, { type: 'tool_call', id: 'tooluse_1', name: 'read', args: { path: 'a.txt' } }] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'tooluse_1', toolName: 'read', content: [{ type: 'text', text: 'no such file' }], isError: true }] },
          { role: 'user', content: [{ type: 'text', text: 'Try again.' }] },
        ],
        { tools: [{ name: 'read', description: 'Read a file', inputSchema: { properties: { path: { type: 'string' } } } }], maxTokens: 2048, temperature: 0.2, stopSequences: ['END'] },
      ),
      CLAUDE,
    );
    expect(body).toEqual({
      messages: [
        { role: 'user', content: [{ text: 'What is in this picture?' }, { image: { format: 'png', source: { bytes: PNG } } }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_1', name: 'read', input: { path: 'a.txt' } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_1', content: [{ text: 'no such file' }], status: 'error' } }, { text: 'Try again.' }] },
      ],
      system: [{ text: 'You are terse.' }],
      toolConfig: { tools: [{ toolSpec: { name: 'read', description: 'Read a file', inputSchema: { json: { type: 'object', properties: { path: { type: 'string' } } } } } }] },
      inferenceConfig: { maxTokens: 2048, temperature: 0.2, stopSequences: ['END'] },
    });
  });

  it('turns thinking on for Claude (model ids and inference profiles) in additionalModelRequestFields, and not for other families', () => {
    const messages: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Think.' }] }];
    const claude = buildBedrockBody(request(messages, { thinking: 'low', maxTokens: 2048, temperature: 0.5 }), CLAUDE);
    expect(claude.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 4096 } });
    // budget_tokens must stay below maxTokens, and a temperature is not allowed with thinking.
    expect(claude.inferenceConfig).toEqual({ maxTokens: 4096 + 2048 });
    expect(buildBedrockBody(request(messages, { thinking: 'high' }), 'anthropic.claude-3-7-sonnet-20250219-v1:0').additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 32_000 } });
    expect(buildBedrockBody(request(messages, { thinking: 'high' }), 'amazon.nova-pro-v1:0').additionalModelRequestFields).toBeUndefined();
  });

  it('replays its own reasoning with the signature (or redacted bytes), and no other protocol\'s', () => {
    const body = buildBedrockBody(
      request([
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', text: 'Greeting.', signature: 'sig-bedrock', providerProtocol: 'bedrock' },
            { type: 'thinking', text: '', redacted: 'cmVkYWN0ZWQ=', providerProtocol: 'bedrock' },
            { type: 'thinking', text: 'Gemini thought', signature: 'sig-gemini', providerProtocol: 'gemini' },
            { type: 'thinking', text: 'aborted, unsigned', providerProtocol: 'bedrock' },
            { type: 'text', text: 'Hello.' },
          ],
        },
      ]),
      CLAUDE,
    );
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { reasoningContent: { reasoningText: { text: 'Greeting.', signature: 'sig-bedrock' } } },
        { reasoningContent: { redactedContent: 'cmVkYWN0ZWQ=' } },
        { text: 'Hello.' },
      ],
    });
  });

  it('refuses an image format Converse cannot take, saying which formats it takes', () => {
    expect(() => buildBedrockBody(request([{ role: 'user', content: [{ type: 'image', data: PNG, mimeType: 'image/bmp' }] }]), CLAUDE)).toThrow(
      'an image of type image/bmp cannot be sent to Bedrock: the Converse API takes PNG, JPEG, GIF or WebP; convert it first',
    );
  });
});

describe('a session switching to and from Bedrock', () => {
  const history: ModelMessage[] = [
    { role: 'user', content: [{ type: 'text', text: 'List the files.' }] },
    {
      role: 'assistant',
      model: 'openai/gpt-5.1',
      content: [
        { type: 'thinking', text: 'Use ls.', redacted: 'gAAAAencrypted', providerProtocol: 'openai-responses' },
        { type: 'tool_call', id: 'call_abc|fc_123', name: 'ls', args: {}, providerData: { itemId: 'fc_123' } },
      ],
    },
    { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_abc|fc_123', toolName: 'ls', content: [{ type: 'text', text: 'a.txt' }] }] },
    {
      role: 'assistant',
      model: `bedrock/${CLAUDE}`,
      content: [
        { type: 'thinking', text: 'One file.', signature: 'sig-bedrock', providerProtocol: 'bedrock' },
        { type: 'text', text: 'There is a.txt.' },
      ],
    },
  ];

  it('to Bedrock: foreign reasoning becomes text, foreign call ids are made valid toolUseIds in the call and its result, its own reasoning keeps its signature', () => {
    const body = buildBedrockBody(request(convertHistoryForModel(history, { protocol: 'bedrock', provider: 'bedrock', modelId: CLAUDE })), CLAUDE);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ text: 'List the files.' }] },
      { role: 'assistant', content: [{ text: '<thinking>\nUse ls.\n</thinking>' }, { toolUse: { toolUseId: 'call_abc_fc_123', name: 'ls', input: {} } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 'call_abc_fc_123', content: [{ text: 'a.txt' }] } }] },
      { role: 'assistant', content: [{ reasoningContent: { reasoningText: { text: 'One file.', signature: 'sig-bedrock' } } }, { text: 'There is a.txt.' }] },
    ]);
    expect(JSON.stringify(body)).not.toContain('gAAAAencrypted');
  });

  it('from Bedrock: another vendor gets Bedrock\'s reasoning as text, never its signature', () => {
    const converted = convertHistoryForModel(history, { protocol: 'anthropic-messages', provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
    expect(converted[3]).toEqual({ role: 'assistant', model: `bedrock/${CLAUDE}`, content: [{ type: 'text', text: '<thinking>\nOne file.\n</thinking>' }, { type: 'text', text: 'There is a.txt.' }] });
    expect(JSON.stringify(converted)).not.toContain('sig-bedrock');
  });
});
