import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { startTwoClients } from '../support/two-clients.js';

describe('two clients of one daemon', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('a client that loads a session another one prompts sees the history, then the live turn', async () => {
    const { replay, editor, watcher, sessionId, workspace } = await startTwoClients(cleanups);
    replay.enqueue({ body: chatCompletionSse(['First ', 'answer.']) });
    await editor.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'one' }] });
    await watcher.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    expect(watcher.agentText(sessionId)).toBe('First answer.');

    replay.enqueue({ body: chatCompletionSse(['Second.']) });
    await editor.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'two' }] });
    expect(watcher.agentText(sessionId)).toBe('First answer.Second.');
    // The watcher also sees the prompt it did not send.
    const prompts = watcher.received.filter((m) => m.method === 'session/update' && m.params.update.sessionUpdate === 'user_message_chunk');
    expect(prompts.map((m) => m.params.update.content.text)).toEqual(['one', 'two']);
    // The title comes from the first prompt: told live to the editor, replayed to the watcher, listed.
    const titles = (peer: typeof editor) => peer.updates(sessionId).filter((u) => u.sessionUpdate === 'session_info_update').map((u) => u.title);
    expect(titles(editor)).toEqual(['one']);
    expect(titles(watcher)).toEqual(['one']);
    expect((await watcher.call('session/list', {})).sessions).toMatchObject([{ sessionId, title: 'one' }]);
  });
});
