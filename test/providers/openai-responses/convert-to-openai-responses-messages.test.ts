import { describe, expect, it } from 'vitest';
import { convertToOpenAIResponsesMessages } from '../../../src/providers/openai-responses/convert-to-openai-responses-messages.js';
import type { ModelMessage } from '../../../src/providers/message.js';

describe('convertToOpenAIResponsesMessages', () => {
  it('joins system blocks into instructions and omits them when empty', () => {
    expect(convertToOpenAIResponsesMessages([{ text: 'Role.' }, { text: '', cacheBoundary: true }, { text: 'Rules.' }], []).instructions).toBe(
      'Role.\n\nRules.',
    );
    expect(convertToOpenAIResponsesMessages([], []).instructions).toBeUndefined();
  });

  it('converts a full tool round trip, keeping the assistant order and answering by call_id', () => {
    const messages: ModelMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture, and the weather?' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        ],
      },
      {
        role: 'assistant',
        content: [
          {
            type: 'thinking',
            text: '**Plan**',
            redacted: 'gAAAAenc',
            providerProtocol: 'openai-responses',
            providerData: { itemId: 'rs_1' },
          },
          { type: 'text', text: 'Checking.' },
          { type: 'text', text: ' One moment.' },
          { type: 'tool_call', id: 'call_1', name: 'get_weather', args: { city: 'Paris' }, providerData: { itemId: 'fc_1' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool_result', toolCallId: 'call_1', toolName: 'get_weather', content: [{ type: 'text', text: '18°C' }, { type: 'text', text: 'sunny' }] },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'It is 18°C.' }] },
    ];
    expect(convertToOpenAIResponsesMessages([], messages).input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is in this picture, and the weather?' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
        ],
      },
      { type: 'reasoning', id: 'rs_1', encrypted_content: 'gAAAAenc', summary: [{ type: 'summary_text', text: '**Plan**' }] },
      {
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'Checking.' },
          { type: 'output_text', text: ' One moment.' },
        ],
      },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '18°C\nsunny' },
      { role: 'assistant', content: [{ type: 'output_text', text: 'It is 18°C.' }] },
    ]);
  });

  it('drops reasoning from other protocols or without encrypted content, and sends an empty summary for empty text', () => {
    const messages: ModelMessage[] = [
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'anthropic thoughts', signature: 'sig', providerProtocol: 'anthropic-messages' },
          { type: 'thinking', text: 'no encrypted content', providerProtocol: 'openai-responses', providerData: { itemId: 'rs_2' } },
          { type: 'thinking', text: 'no protocol', redacted: 'enc' , providerData: { itemId: 'rs_3' } },
          { type: 'thinking', text: '', redacted: 'enc4', providerProtocol: 'openai-responses', providerData: { itemId: 'rs_4' } },
        ],
      },
    ];
    expect(convertToOpenAIResponsesMessages([], messages).input).toEqual([
      { type: 'reasoning', id: 'rs_4', encrypted_content: 'enc4', summary: [] },
    ]);
  });

  it('sends tool results with images in the content-array form and an empty call result as an empty string', () => {
    const messages: ModelMessage[] = [
      {
        role: 'tool',
        content: [
          {
            type: 'tool_result',
            toolCallId: 'call_shot',
            toolName: 'screenshot',
            content: [
              { type: 'text', text: 'Screen:' },
              { type: 'image', data: 'AAAA', mimeType: 'image/jpeg' },
            ],
          },
          { type: 'tool_result', toolCallId: 'call_empty', toolName: 'noop', content: [], isError: true },
        ],
      },
    ];
    expect(convertToOpenAIResponsesMessages([], messages).input).toEqual([
      {
        type: 'function_call_output',
        call_id: 'call_shot',
        output: [
          { type: 'input_text', text: 'Screen:' },
          { type: 'input_image', image_url: 'data:image/jpeg;base64,AAAA' },
        ],
      },
      { type: 'function_call_output', call_id: 'call_empty', output: '' },
    ]);
  });
});
