import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { until } from '../support/daemon-process.js';
import { startLoopHarness, toolResults, type LoopHarness } from '../support/loop-harness.js';

/** Processes whose command line contains the marker (host view of /proc). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0];
      if (cmdline.includes(marker) && state !== 'Z') found.push(Number(entry));
    } catch {
      // Exited meanwhile.
    }
  }
  return found;
}

describe('steering, follow-ups and abort', () => {
  let h: LoopHarness;
  afterEach(async () => h.close());

  it('delivers a steer after the running tool call and skips the calls not yet started', async () => {
    h = await startLoopHarness({ permissions: { allow: ['bash'] } });
    h.replay.enqueue({
      body: chatToolCallSse([
        { id: 'call_1', name: 'bash', arguments: { command: 'sleep 1; echo first-done' } },
        { id: 'call_2', name: 'bash', arguments: { command: 'echo second' } },
      ]),
    });
    h.replay.enqueue({ body: chatCompletionSse(['Stopped as asked.']) });
    const prompt = h.peer.request('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'run both' }] });
    await h.peer.waitFor((m) => m.params?.update?.sessionUpdate === 'tool_call_update' && m.params.update.toolCallId === 'call_1' && m.params.update.status === 'in_progress');
    expect(await h.peer.call('session/steer', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'stop after this one' }] })).toEqual({ queued: 1 });
    expect((await prompt).result).toEqual({ stopReason: 'end_turn' });

    const body = h.requestBody(1);
    const results = toolResults(body);
    expect(results.call_1).toContain('first-done');
    expect(results.call_2).toMatch(/Skipped: the user sent a new message/);
    expect(JSON.stringify(body.messages.at(-1))).toContain('stop after this one');
    const queueEvents = h.peer.received.filter((m) => m.method === 'agentd/event' && m.params.event.type === 'queue').map((m) => m.params.event.steering);
    expect(queueEvents).toEqual([1, 0]);
  });

  it('with interrupt ends the stream in flight, keeps the partial text and goes on with the message', async () => {
    h = await startLoopHarness();
    h.replay.enqueue({ body: chatCompletionSse(Array.from({ length: 200 }, (_, i) => `w${i} `)), chunking: 'bytewise', delayMs: 2 });
    h.replay.enqueue({ body: chatCompletionSse(['Switching topic.']) });
    const prompt = h.peer.request('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'count' }] });
    await h.peer.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');
    await h.peer.call('session/steer', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'talk about cats instead' }], interrupt: true });
    expect((await prompt).result).toEqual({ stopReason: 'end_turn' });

    const messages = h.requestBody(1).messages;
    const partial = messages.at(-2)!;
    expect(partial.role).toBe('assistant');
    expect(String(partial.content)).toMatch(/^w0 /);
    expect(String(partial.content)).not.toContain('w199');
    expect(JSON.stringify(messages.at(-1))).toContain('talk about cats instead');
  });

  it('runs session/followUp after the agent would have stopped', async () => {
    h = await startLoopHarness();
    h.replay.enqueue({ body: chatCompletionSse(['first ', 'answer']), chunking: 'bytewise', delayMs: 3 });
    h.replay.enqueue({ body: chatCompletionSse(['second answer']) });
    const prompt = h.peer.request('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'one' }] });
    await h.peer.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');
    expect(await h.peer.call('session/followUp', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'and two' }] })).toEqual({ queued: 1 });
    expect((await prompt).result).toEqual({ stopReason: 'end_turn' });
    expect(h.replay.requests).toHaveLength(2);
    const second = h.requestBody(1).messages;
    expect(second.at(-2)).toMatchObject({ role: 'assistant', content: 'first answer' });
    expect(JSON.stringify(second.at(-1))).toContain('and two');
  });

  it('aborts mid-tool: the whole process group is gone and the call ends failed', async () => {
    h = await startLoopHarness({ permissions: { allow: ['bash'] } });
    const marker = `agentd-abort-${process.pid}-${Date.now()}`;
    h.replay.enqueue({ body: chatToolCallSse([{ id: 'call_sleep', name: 'bash', arguments: { command: `bash -c 'sleep 300; : ${marker}' & sleep 300; : ${marker}` } }]) });
    const prompt = h.peer.request('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'sleep' }] });
    await h.peer.waitFor((m) => m.params?.update?.status === 'in_progress' && m.params.update.toolCallId === 'call_sleep');
    await until(() => processesWith(marker).length >= 2, 10_000, 'the sleeping processes');
    expect(await h.peer.call('session/abort', { sessionId: h.sessionId })).toEqual({ stopped: true });
    expect((await prompt).result).toEqual({ stopReason: 'cancelled' });
    await until(() => processesWith(marker).length === 0, 5_000, 'the process group to be gone');
    const last = h.peer.updates(h.sessionId).filter((u) => u.toolCallId === 'call_sleep').at(-1);
    expect(last).toMatchObject({ sessionUpdate: 'tool_call_update', status: 'failed' });
  });

  it('answers a queued follow-up when the turn ends before taking it (here: the model fails)', async () => {
    h = await startLoopHarness({ providers: { local: { maxRetries: 0 } } });
    const partial = chatCompletionSse(['part ', 'one ', 'and more']);
    h.replay.enqueue({ body: partial, resetAfterBytes: partial.indexOf('and more') - 20, chunking: 'bytewise', delayMs: 1 });
    const first = h.peer.request('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'a' }] });
    await h.peer.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');
    const queued = h.peer.request('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'later' }], _meta: { agentd: { delivery: 'followUp' } } });
    expect((await first).error!.code).toBe(-32014);
    expect((await queued).error!.code).toBe(-32014);
    expect(h.replay.requests).toHaveLength(1);
  });

  it('clears queued messages on abort unless asked to keep them', async () => {
    h = await startLoopHarness();
    const slow = { body: chatCompletionSse(Array.from({ length: 100 }, (_, i) => `${i} `)), chunking: 'bytewise' as const, delayMs: 3 };
    h.replay.enqueue(slow);
    const first = h.peer.request('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'a' }] });
    await h.peer.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');
    const queued = h.peer.request('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'later' }], _meta: { agentd: { delivery: 'followUp' } } });
    await h.peer.waitFor((m) => m.method === 'agentd/event' && m.params.event.type === 'queue' && m.params.event.followUp === 1);
    await h.peer.call('session/abort', { sessionId: h.sessionId });
    expect((await first).result).toEqual({ stopReason: 'cancelled' });
    expect((await queued).result).toEqual({ stopReason: 'cancelled' });
    expect(h.replay.requests).toHaveLength(1);
  });
});
