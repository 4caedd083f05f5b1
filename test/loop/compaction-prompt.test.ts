import { describe, expect, it } from 'vitest';
import type { ModelMessage } from '../../src/providers/message.js';
import { buildCompactionPrompt, COMPACTION_SECTIONS, serializeTranscript } from '../../src/loop/compaction-prompt.js';

const transcript: ModelMessage[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Fix the failing test in src/math.ts' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', text: 'secret reasoning that should not be summarized', signature: 'sig' },
      { type: 'text', text: 'Let me read it.' },
      { type: 'tool_call', id: 'call_1', name: 'read', args: { path: 'src/math.ts' } },
      { type: 'tool_call', id: 'call_2', name: 'write', args: {}, argsError: 'cut off' },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool_result', toolCallId: 'call_1', toolName: 'read', content: [{ type: 'text', text: 'export const add = (a, b) => a - b;' }] },
      { type: 'tool_result', toolCallId: 'call_2', toolName: 'write', content: [{ type: 'text', text: 'bad arguments' }], isError: true },
    ],
  },
];

describe('serializeTranscript', () => {
  it('writes every message as readable text, tool calls and results included, images as [image]', () => {
    expect(serializeTranscript(transcript)).toBe(
      [
        '[user]\nFix the failing test in src/math.ts\n[image]',
        '[assistant]\nLet me read it.\n[tool call read (call_1)] {"path":"src/math.ts"}\n[tool call write (call_2)] (arguments unreadable: cut off)',
        '[tool]\n[tool result read (call_1)]\nexport const add = (a, b) => a - b;\n[tool error write (call_2)]\nbad arguments',
      ].join('\n\n'),
    );
  });

  it('cuts long parts to their head and tail', () => {
    const long = `HEAD${'x'.repeat(20_000)}TAIL`;
    const text = serializeTranscript([{ role: 'user', content: [{ type: 'text', text: long }] }], 1_000);
    expect(text.length).toBeLessThan(1_100);
    expect(text).toContain('HEAD');
    expect(text).toContain('TAIL');
    expect(text).toContain(`[… ${long.length - 1_000} characters cut …]`);
  });
});

describe('buildCompactionPrompt', () => {
  it('asks for every fixed section, in order, around the transcript', () => {
    const prompt = buildCompactionPrompt(transcript);
    expect(COMPACTION_SECTIONS).toEqual([
      'Request and intent',
      'Key concepts',
      'Files and code',
      'Errors and fixes',
      'Pending tasks',
      'Current work',
      'Next step',
    ]);
    const headings = COMPACTION_SECTIONS.map((name) => prompt.indexOf(`## ${name}`));
    expect(headings.every((at) => at > 0)).toBe(true);
    expect([...headings].sort((a, b) => a - b)).toEqual(headings);
    expect(prompt).toContain(`<transcript>\n${serializeTranscript(transcript)}\n</transcript>`);
    expect(prompt).not.toContain('secret reasoning');
  });
});
