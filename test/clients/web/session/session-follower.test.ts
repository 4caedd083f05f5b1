import { describe, expect, it } from 'vitest';
import { SessionFollower } from '../../../../clients/web/src/session/session-follower.js';
import { announcement } from '../../../../clients/web/src/shell/announcer.js';
import type { SessionUpdate } from '../../../../protocol/index.js';

describe('the session follower', () => {
  it('reduces every update that came before the next frame in one go: 2,000 chunks, one new transcript', () => {
    const frames: Array<() => void> = [];
    const follower = new SessionFollower('ses_1', (flush) => frames.push(flush));
    const renders: number[] = [];
    follower.transcript.subscribe((state) => renders.push(state.items.length));
    for (let i = 0; i < 2000; i++) follower.receive({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `w${i} ` } } satisfies SessionUpdate);
    expect(frames).toHaveLength(1);
    frames[0]!();
    expect(renders).toEqual([0, 1]);
    const [message] = follower.transcript.value.items;
    expect(message).toMatchObject({ kind: 'agent' });
    expect((message as { text: string }).text.split(' ').filter(Boolean)).toHaveLength(2000);
    follower.receive({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'end' } });
    expect(frames).toHaveLength(2);
  });

  it('follows the turn state and the queues from agentd events', () => {
    const follower = new SessionFollower('ses_1', () => undefined);
    follower.event({ type: 'turn_start', turnId: 't1' });
    expect(follower.running.value).toBe(true);
    follower.event({ type: 'queue', steering: 1, followUp: 2 });
    expect(follower.queued.value).toEqual({ steering: 1, followUp: 2 });
    follower.event({ type: 'turn_end', turnId: 't1', stopReason: 'end_turn' });
    expect(follower.running.value).toBe(false);
    expect(announcement.value).toBe('The turn ended (end turn)');
  });
});
