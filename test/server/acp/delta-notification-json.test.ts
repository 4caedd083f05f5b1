import { describe, expect, it } from 'vitest';
import { DeltaNotificationJson, type DeltaEvent } from '../../../src/server/acp/delta-notification-json.js';
import { mapSessionEvent, type EventAudience } from '../../../src/server/acp/map-session-event.js';
import type { SessionEvent } from '../../../src/session/session-event.js';

const audiences: EventAudience[] = [
  { clientId: 'c1', wantsEvents: false, acceptsNotices: false, acceptsCompaction: false },
  { clientId: 'c2', wantsEvents: true, acceptsNotices: true, acceptsCompaction: true },
];

/** What the general path writes: each of mapSessionEvent's notifications in its envelope, stringified. */
function generalLines(sessionId: string, event: SessionEvent, audience: EventAudience): string[] {
  return mapSessionEvent(sessionId, event, audience).map((out) => JSON.stringify({ jsonrpc: '2.0', method: out.method, params: out.params }));
}

const texts = [
  'hello',
  '',
  ' ',
  'quote " backslash \\ slash / tab \t newline \n return \r',
  'controls \u0000 \u0001 \u001f \u007f \u2028 \u2029',
  'unicode é ü 漢字 👋🏽',
  'lone surrogates \ud800 and \udfff',
  '{"jsonrpc":"2.0"}}}}',
  'x'.repeat(70_000),
];

describe('DeltaNotificationJson', () => {
  it('writes byte for byte the line the general path writes, for every delta kind, text and audience', () => {
    for (const sessionId of ['019ac3f2-1234-7abc-9def-0123456789ab', 'odd "id" \\ \u0001']) {
      const json = new DeltaNotificationJson(sessionId);
      for (const type of ['text_delta', 'thinking_delta'] as const) {
        for (const messageId of ['m-1', 'm "2" \n']) {
          for (const text of texts) {
            const event: DeltaEvent = { type, messageId, text };
            for (const audience of audiences) expect([json.of(event)]).toEqual(generalLines(sessionId, event, audience));
          }
        }
      }
    }
  });

  it('starts a new prefix when the message or the kind changes, and back again', () => {
    const sessionId = 's';
    const json = new DeltaNotificationJson(sessionId);
    const sequence: DeltaEvent[] = [
      { type: 'thinking_delta', messageId: 'a', text: 'think' },
      { type: 'text_delta', messageId: 'a', text: 'say' },
      { type: 'text_delta', messageId: 'b', text: 'more' },
      { type: 'thinking_delta', messageId: 'b', text: 'again' },
      { type: 'text_delta', messageId: 'a', text: 'back' },
    ];
    const lines = sequence.map((event) => JSON.parse(json.of(event)) as { params: { update: Record<string, unknown> } });
    expect(lines.map((line) => [line.params.update.sessionUpdate, line.params.update.messageId])).toEqual([
      ['agent_thought_chunk', 'a'],
      ['agent_message_chunk', 'a'],
      ['agent_message_chunk', 'b'],
      ['agent_thought_chunk', 'b'],
      ['agent_message_chunk', 'a'],
    ]);
    sequence.forEach((event) => expect(json.of(event)).toBe(generalLines(sessionId, event, audiences[0]!)[0]));
  });
});
