import { describe, expect, it } from 'vitest';
import { convertToOpenAIChatMessages } from '../../../src/providers/openai-chat/convert-to-openai-chat-messages.js';

describe('chat-completions user content', () => {
  const options = { systemRole: 'system' as const, replayReasoningContent: false };

  it('keeps the blocks of one prompt apart when they are all text (a question, then an attached file)', () => {
    const [user] = convertToOpenAIChatMessages([], [{ role: 'user', content: [{ type: 'text', text: 'What does this return?' }, { type: 'text', text: '<resource uri="file:///a.lua#L2-L3">\n  return 42\n</resource>' }] }], options);
    expect(user).toEqual({ role: 'user', content: 'What does this return?\n\n<resource uri="file:///a.lua#L2-L3">\n  return 42\n</resource>' });
  });

  it('sends typed parts when an image is among them', () => {
    const [user] = convertToOpenAIChatMessages([], [{ role: 'user', content: [{ type: 'text', text: 'Why red?' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] }], options);
    expect(user).toEqual({ role: 'user', content: [{ type: 'text', text: 'Why red?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] });
  });
});
