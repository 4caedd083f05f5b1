import { describe, expect, it } from 'vitest';
import { catchUpFromUpdates } from '../../src/session/catch-up-from-updates.js';
import type { SessionEvent } from '../../src/session/session-event.js';
import { sessionEventToJson } from '../../src/session/session-event-json.js';
import type { SessionUpdateRow, SessionUpdatesSnapshot } from '../../src/store/postgres-session-updates.js';
import type { MessageRecord, SessionRecord, TurnRecord, TurnStatus } from '../../src/store/store.js';

const NOW = '2026-11-27T08:00:00.000Z';
const SECONDS_AGO = (s: number): string => new Date(Date.parse(NOW) - s * 1000).toISOString();

function message(seq: number, turnId: string, role: 'user' | 'assistant', text: string): MessageRecord {
  return {
    seq,
    id: `m${seq}`,
    sessionId: 's',
    turnId,
    role,
    content: [{ type: 'text', text }],
    status: 'complete',
    model: null,
    usage: null,
    costUsd: null,
    meta: null,
    createdAt: NOW,
  } as MessageRecord;
}

function turn(id: string, status: TurnStatus, endedSecondsAgo?: number): TurnRecord {
  return { id, sessionId: 's', status, startedAt: SECONDS_AGO(3600), endedAt: endedSecondsAgo === undefined ? null : SECONDS_AGO(endedSecondsAgo), error: null };
}

/** A turn's updates as its daemon appends them: start, the prompt, a streamed reply and (when ended) its commit and end. */
function turnUpdates(turnId: string, reply: string[], ends: boolean): Array<{ turnId: string; event: SessionEvent }> {
  const events: SessionEvent[] = [
    { type: 'turn_start', turnId },
    { type: 'user_message', messageId: `${turnId}-u`, content: [{ type: 'text', text: 'q' }] },
    { type: 'message_committed', message: { role: 'user', content: [{ type: 'text', text: 'q' }] }, status: 'complete' },
    ...reply.map((text): SessionEvent => ({ type: 'text_delta', messageId: `${turnId}-a`, text })),
  ];
  if (ends) {
    events.push({ type: 'message_committed', message: { role: 'assistant', content: [{ type: 'text', text: reply.join('') }] }, status: 'complete' });
    events.push({ type: 'turn_end', turnId, stopReason: 'end_turn' });
  }
  return events.map((event) => ({ turnId, event }));
}

function snapshot(turns: TurnRecord[], messages: MessageRecord[], updates: Array<{ turnId: string; event: SessionEvent }>, title: string | null = 'q'): SessionUpdatesSnapshot {
  const rows: SessionUpdateRow[] = updates.map(({ turnId, event }, i) => ({ seq: i + 1, turnId, kind: event.type, origin: 'dmn_1', event: sessionEventToJson(event) }));
  return { record: { id: 's', title } as SessionRecord, turns, messages, updates: rows, now: NOW };
}

describe('catchUpFromUpdates', () => {
  it('replays only the messages the updates announced: a reply stored but not announced yet is in flight', () => {
    const messages = [message(1, 't1', 'user', 'q'), message(2, 't1', 'assistant', 'one'), message(3, 't2', 'user', 'q'), message(4, 't2', 'assistant', 'two')];
    const caughtUp = catchUpFromUpdates(
      snapshot([turn('t1', 'end_turn', 30), turn('t2', 'running')], messages, [...turnUpdates('t1', ['one'], true), ...turnUpdates('t2', ['tw', 'o'], false)]),
    );
    expect(caughtUp.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
    expect(caughtUp.inFlight).toEqual([{ type: 'text_delta', messageId: 't2-a', text: 'two' }]);
    expect(caughtUp.runningTurnId).toBe('t2');
    expect(caughtUp.title).toBe('q');
  });

  it('holds back a turn the store has but the updates have not reached yet, and the title its prompt brings', () => {
    const messages = [message(1, 't1', 'user', 'q'), message(2, 't1', 'assistant', 'one')];
    const started = catchUpFromUpdates(snapshot([turn('t1', 'running')], messages, []));
    expect(started.messages).toEqual([]);
    expect(started.runningTurnId).toBe('t1');
    // Ended a moment ago, its updates still on the way.
    const ended = catchUpFromUpdates(snapshot([turn('t1', 'end_turn', 1)], messages, turnUpdates('t1', [], false).slice(0, 3)));
    expect(ended.messages.map((m) => m.id)).toEqual(['m1']);
    expect(ended.title).toBeNull();
    expect(ended.runningTurnId).toBe('t1');
    // Started and ended a moment ago, after a turn whose updates are all there: none of its own yet.
    const later = [...messages, message(3, 't2', 'user', 'q'), message(4, 't2', 'assistant', 'two')];
    const quick = catchUpFromUpdates(snapshot([turn('t1', 'end_turn', 30), turn('t2', 'end_turn', 1)], later, turnUpdates('t1', ['one'], true)));
    expect(quick.messages.map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(quick.runningTurnId).toBe('t2');
  });

  it('replays whole the turns whose updates ended, were pruned, never existed, or whose daemon died', () => {
    const messages = [message(1, 't1', 'user', 'q'), message(2, 't1', 'assistant', 'one'), message(3, 't2', 'user', 'q'), message(4, 't2', 'assistant', 'two')];
    const pruned = catchUpFromUpdates(snapshot([turn('t1', 'end_turn', 600), turn('t2', 'end_turn', 5)], messages, turnUpdates('t2', ['two'], true)));
    expect(pruned.messages).toHaveLength(4);
    expect(pruned.runningTurnId).toBeUndefined();
    expect(pruned.inFlight).toEqual([]);
    const before = catchUpFromUpdates(snapshot([turn('t1', 'end_turn', 600), turn('t2', 'cancelled', 300)], messages, []));
    expect(before.messages).toHaveLength(4);
    expect(before.runningTurnId).toBeUndefined();
    const died = catchUpFromUpdates(snapshot([turn('t1', 'end_turn', 600), turn('t2', 'interrupted', 1)], messages, turnUpdates('t2', ['tw'], false)));
    expect(died.messages).toHaveLength(4);
    expect(died.runningTurnId).toBeUndefined();
  });
});
