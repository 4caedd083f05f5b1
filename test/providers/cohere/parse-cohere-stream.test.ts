import { describe, expect, it } from 'vitest';
import { CohereToolNames } from '../../../src/providers/cohere/cohere-tool-names.js';
import { parseCohereStream } from '../../../src/providers/cohere/parse-cohere-stream.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';
import { loadFixture } from '../../support/load-fixture.js';
import { toComparableEvents } from '../../support/normalize-events.js';

const context = { provider: 'cohere', model: 'command-a-03-2025' };

function sse(type: string, data: Record<string, unknown> = {}): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

const start = sse('message-start', { id: 'm1', delta: { message: { role: 'assistant' } } });
const end = (finish_reason: string) => sse('message-end', { delta: { finish_reason, usage: { billed_units: { input_tokens: 3, output_tokens: 2 }, tokens: { input_tokens: 9, output_tokens: 4 } } } });
const callStart = (name: string, id: string, extra: Record<string, unknown> = {}) =>
  sse('tool-call-start', { ...extra, delta: { message: { tool_calls: { id, type: 'function', function: { name, arguments: '' } } } } });
const callDelta = (args: string, extra: Record<string, unknown> = {}) => sse('tool-call-delta', { ...extra, delta: { message: { tool_calls: { function: { arguments: args } } } } });

function run(text: string, names = new CohereToolNames()): StreamEvent[] {
  const parser = parseCohereStream(context, names);
  return [...parser.push(text), ...parser.end()];
}

describe('parseCohereStream', () => {
  it('parses a transcript fed as decoded text in small pieces, without HTTP', () => {
    const fixture = loadFixture('cohere', 'tool-result-citations');
    const parser = parseCohereStream(context, new CohereToolNames());
    const decoder = new TextDecoder();
    const events: StreamEvent[] = [];
    // Cut every 5 bytes, which lands inside multi-byte characters such as °.
    for (let i = 0; i < fixture.bytes.length; i += 5) events.push(...parser.push(decoder.decode(fixture.bytes.subarray(i, i + 5), { stream: true })));
    events.push(...parser.push(decoder.decode()), ...parser.end());
    expect(toComparableEvents(events)).toEqual(fixture.expected.events);
  });

  it('reads calls back under the tool names agentd gave them', () => {
    const names = new CohereToolNames(['github-issues']);
    const events = run(start + callStart('github_issues', 'github_issues_abc', { index: 0 }) + callDelta('{"number": 7}', { index: 0 }) + sse('tool-call-end', { index: 0 }) + end('TOOL_CALL'), names);
    expect(events.filter((e) => e.type.startsWith('tool-call'))).toEqual([
      { type: 'tool-call-start', id: 'github_issues_abc', name: 'github-issues' },
      { type: 'tool-call-delta', id: 'github_issues_abc', argsDelta: '{"number": 7}' },
      { type: 'tool-call-end', id: 'github_issues_abc', name: 'github-issues', args: { number: 7 } },
    ]);
  });

  it('takes events without an index as the latest call, "null" arguments as none, and ends a call left open at message-end', () => {
    const events = run(start + callStart('now', 'now_1') + callDelta('null') + sse('tool-call-end') + callStart('read', 'read_2') + callDelta('{"path":"a"}') + end('COMPLETE'));
    expect(events.filter((e) => e.type === 'tool-call-end')).toEqual([
      { type: 'tool-call-end', id: 'now_1', name: 'now', args: {} },
      { type: 'tool-call-end', id: 'read_2', name: 'read', args: { path: 'a' } },
    ]);
    // Some servers say COMPLETE after calls; the calls decide.
    expect(events.at(-1)).toEqual({ type: 'stop', reason: { unified: 'tool_use', raw: 'COMPLETE' } });
  });

  it('skips event types it does not read, such as debug', () => {
    const events = run(start + sse('debug', { prompt: 42 }) + sse('content-start', { index: 0, delta: { message: { content: { type: 'text', text: '' } } } }) + sse('content-delta', { index: 0, delta: { message: { content: { text: 'Hi' } } } }) + sse('content-end', { index: 0 }) + end('STOP_SEQUENCE'));
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'text-end', 'usage', 'stop']);
    expect(events.at(-1)).toEqual({ type: 'stop', reason: { unified: 'end_turn', raw: 'STOP_SEQUENCE' } });
  });

  it('names the field and event when a read field has the wrong type', () => {
    const events = toComparableEvents(run(start + sse('content-delta', { index: 0, delta: { message: { content: { text: 7 } } } })));
    expect(events).toEqual([
      {
        type: 'error',
        error: {
          kind: 'server',
          midStream: false,
          message: expect.stringContaining('cohere (cohere): the stream sent a "content-delta" event that does not fit the cohere format at delta.message.content.text'),
        },
      },
    ]);
  });

  it('fails a stream whose [DONE] comes before message-end, and one that times out', () => {
    const done = toComparableEvents(run(start + 'data: [DONE]\n\n'));
    expect(done).toEqual([{ type: 'error', error: { kind: 'network', midStream: false, message: 'cohere (cohere): the stream sent [DONE] before message-end; the response was truncated' } }]);
    const timeout = toComparableEvents(run(start + sse('message-end', { delta: { finish_reason: 'TIMEOUT' } })));
    expect(timeout).toEqual([
      { type: 'error', error: { kind: 'timeout', midStream: false, message: 'cohere (cohere): the generation failed (finish_reason TIMEOUT): the generation exceeded the allowed time limit' } },
    ]);
  });

  it('shows document and tool citations as one numbered source list after the answer', () => {
    const citation = (text: string, sources: unknown[]) => sse('citation-start', { index: 0, delta: { message: { citations: { start: 0, end: 1, text, sources, type: 'TEXT_CONTENT' } } } });
    const events = run(
      start +
        sse('content-delta', { index: 0, delta: { message: { content: { text: 'A and B.' } } } }) +
        citation('A', [{ type: 'document', id: 'doc:0', document: { id: 'doc:0', text: '…' } }, { type: 'tool', id: 'search_1:0', tool_output: {} }]) +
        sse('citation-end', { index: 0 }) +
        citation('B', [{ type: 'document', id: 'doc:1', document: { title: 'Handbook' } }]) +
        end('COMPLETE'),
    );
    expect(events.slice(0, 4)).toEqual([
      { type: 'text-delta', text: 'A and B.' },
      { type: 'text-end' },
      { type: 'text-delta', text: 'Sources:\n[1] "A" — document doc:0; tool result search_1:0\n[2] "B" — Handbook (doc:1)' },
      { type: 'text-end' },
    ]);
  });
});
