import { describe, expect, it } from 'vitest';
import type { SessionUpdate } from '../../../../protocol/index.js';
import { reduceSessionUpdate } from '../../../../clients/web/src/session/reduce-session-update.js';
import { EMPTY_TRANSCRIPT } from '../../../../clients/web/src/session/transcript-state.js';

const text = (sessionUpdate: 'user_message_chunk' | 'agent_message_chunk' | 'agent_thought_chunk', value: string): SessionUpdate => ({
  sessionUpdate,
  content: { type: 'text', text: value },
});

describe('reduceSessionUpdate', () => {
  it('reduces a whole turn: chunks join their message, a tool call and its updates merge, a plan replaces the plan', () => {
    const updates: SessionUpdate[] = [
      text('user_message_chunk', 'write a note'),
      text('agent_thought_chunk', 'The user '),
      text('agent_thought_chunk', 'wants a note.'),
      text('agent_message_chunk', 'Writing '),
      text('agent_message_chunk', 'it now.'),
      { sessionUpdate: 'plan', entries: [{ content: 'write', priority: 'high', status: 'pending' }] },
      { sessionUpdate: 'tool_call', toolCallId: 'call_w', title: 'Write note.txt', kind: 'edit', status: 'pending', rawInput: { path: 'note.txt' } },
      { sessionUpdate: 'tool_call_update', toolCallId: 'call_w', status: 'in_progress' },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'call_w',
        status: 'completed',
        content: [{ type: 'diff', path: '/w/note.txt', newText: 'hi\n' }],
        rawOutput: 'wrote 3 bytes',
      },
      { sessionUpdate: 'plan', entries: [{ content: 'write', priority: 'high', status: 'completed' }] },
      text('agent_message_chunk', 'Done.'),
      { sessionUpdate: 'session_info_update', title: 'Write a note' },
      { sessionUpdate: 'usage_update', used: 1200, size: 200000, cost: { amount: 0.0042, currency: 'USD' } },
      { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
      { sessionUpdate: 'available_commands_update', availableCommands: [] },
    ];
    expect(updates.reduce(reduceSessionUpdate, EMPTY_TRANSCRIPT)).toEqual({
      items: [
        { kind: 'user', id: 'i0', text: 'write a note', messageId: null },
        { kind: 'thought', id: 'i1', text: 'The user wants a note.', messageId: null },
        { kind: 'agent', id: 'i2', text: 'Writing it now.', messageId: null },
        {
          kind: 'tool',
          id: 'i3',
          call: {
            toolCallId: 'call_w',
            title: 'Write note.txt',
            kind: 'edit',
            status: 'completed',
            content: [{ type: 'diff', path: '/w/note.txt', newText: 'hi\n' }],
            locations: [],
            rawInput: { path: 'note.txt' },
            rawOutput: 'wrote 3 bytes',
          },
        },
        { kind: 'agent', id: 'i4', text: 'Done.', messageId: null },
      ],
      plan: [{ content: 'write', priority: 'high', status: 'completed' }],
      title: 'Write a note',
      currentModeId: 'plan',
      configOptions: null,
      usage: { used: 1200, size: 200000 },
      costUsd: 0.0042,
      nextId: 5,
    });
  });

  it('replaces only the item an update changes, so unchanged items keep their identity', () => {
    const before = [text('user_message_chunk', 'hi'), text('agent_message_chunk', 'a')].reduce(reduceSessionUpdate, EMPTY_TRANSCRIPT);
    const after = reduceSessionUpdate(before, text('agent_message_chunk', 'b'));
    expect(after.items[0]).toBe(before.items[0]);
    expect(after.items[1]).toEqual({ kind: 'agent', id: 'i1', text: 'ab', messageId: null });
    expect(before.items[1]).toEqual({ kind: 'agent', id: 'i1', text: 'a', messageId: null });
  });

  it('starts a new message when the message id changes, even between chunks of one kind', () => {
    const chunk = (messageId: string, text: string): SessionUpdate => ({ sessionUpdate: 'user_message_chunk', messageId, content: { type: 'text', text } });
    const state = [chunk('m1', 'be '), chunk('m1', 'quick'), chunk('m2', 'then add a test')].reduce(reduceSessionUpdate, EMPTY_TRANSCRIPT);
    expect(state.items).toEqual([
      { kind: 'user', id: 'i0', text: 'be quick', messageId: 'm1' },
      { kind: 'user', id: 'i1', text: 'then add a test', messageId: 'm2' },
    ]);
  });

  it('shows an update for a tool call it never saw as a new call, titled by its id until a title comes', () => {
    const state = reduceSessionUpdate(EMPTY_TRANSCRIPT, { sessionUpdate: 'tool_call_update', toolCallId: 'call_x', status: 'failed' });
    expect(state.items).toEqual([
      { kind: 'tool', id: 'i0', call: { toolCallId: 'call_x', title: 'call_x', kind: null, status: 'failed', content: [], locations: [], rawInput: undefined, rawOutput: undefined } },
    ]);
  });

  it('keeps a notice as its own item and leaves the state alone for kinds the page does not show', () => {
    const noticed = reduceSessionUpdate(EMPTY_TRANSCRIPT, { sessionUpdate: 'notice', severity: 'warning', title: 'Fell back to the other model' });
    expect(noticed.items).toEqual([{ kind: 'notice', id: 'i0', severity: 'warning', title: 'Fell back to the other model', description: null }]);
    expect(reduceSessionUpdate(noticed, { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' })).toBe(noticed);
  });
});
