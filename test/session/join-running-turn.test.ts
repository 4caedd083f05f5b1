import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { sseFrameEnds } from '../support/sse-frame-ends.js';
import type { RpcPeer } from '../support/rpc-peer.js';
import { startTwoClients } from '../support/two-clients.js';
import { agentdMeta } from '../support/agentd-meta.js';

const updatesOf = (peer: RpcPeer, sessionId: string, kind: string): any[] => peer.updates(sessionId).filter((u) => u.sessionUpdate === kind);

describe('a client that joins a running turn', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('gets the reply streamed so far in one chunk, then the live rest: the whole reply, nothing twice', async () => {
    const { replay, editor, watcher, sessionId, workspace } = await startTwoClients(cleanups);
    const body = chatCompletionSse(['Hello', ' there', ', ', 'world', ' of', ' agents', '.']);
    replay.enqueue({ body, chunking: { splitAt: sseFrameEnds(body) }, delayMs: 120 });
    const turn = editor.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    await editor.waitFor((m) => m.method === 'session/update' && m.params.update.content?.text === ' there');

    const loaded = await watcher.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    expect(agentdMeta(loaded).state).toBe('running');
    // The first chunk the watcher got is the reply so far, joined (a live chunk may follow
    // before the load's answer is read, under load).
    const atJoin = updatesOf(watcher, sessionId, 'agent_message_chunk').map((u) => u.content.text);
    expect('Hello there, world of agents.'.startsWith(atJoin[0])).toBe(true);
    expect(atJoin[0].length).toBeGreaterThanOrEqual('Hello there'.length);

    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(editor.agentText(sessionId)).toBe('Hello there, world of agents.');
    expect(watcher.agentText(sessionId)).toBe('Hello there, world of agents.');
    // One message: the chunks the watcher got carry the id the editor's did.
    const ids = new Set([...updatesOf(editor, sessionId, 'agent_message_chunk'), ...updatesOf(watcher, sessionId, 'agent_message_chunk')].map((u) => u.messageId));
    expect(ids.size).toBe(1);
  });

  it('sees a tool call that is running with its latest status, once, then its result', async () => {
    const { replay, editor, watcher, sessionId, workspace } = await startTwoClients(cleanups);
    // The model asks to write a file; the default mode asks the editor, which holds its answer.
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_w', name: 'write', arguments: { path: 'note.txt', content: 'hi\n' } }]) });
    replay.enqueue({ body: chatCompletionSse(['Written.']) });
    let allow!: () => void;
    const allowed = new Promise<void>((resolve) => (allow = resolve));
    editor.onRequest('session/request_permission', async (params: { options: Array<{ optionId: string; kind: string }> }) => {
      await allowed;
      return { outcome: { outcome: 'selected', optionId: params.options.find((o) => o.kind === 'allow_once')!.optionId } };
    });
    const turn = editor.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write it' }] });
    await editor.waitFor((m) => m.method === 'session/request_permission');

    await watcher.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    const calls = updatesOf(watcher, sessionId, 'tool_call');
    expect(calls.map((c) => [c.toolCallId, c.kind, c.status])).toEqual([['call_w', 'edit', 'pending']]);

    allow();
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(updatesOf(watcher, sessionId, 'tool_call')).toHaveLength(1);
    expect(updatesOf(watcher, sessionId, 'tool_call_update').at(-1)).toMatchObject({ toolCallId: 'call_w', status: 'completed' });
    expect(watcher.agentText(sessionId)).toBe('Written.');
  });
});
