import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome, spawnDaemon, type DaemonChild } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { agentdMeta } from '../support/agentd-meta.js';

describe('a daemon killed with SIGKILL mid-turn', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  const daemons: DaemonChild[] = [];

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  });

  afterEach(async () => {
    for (const d of daemons.splice(0)) {
      d.child.kill('SIGKILL');
      await d.exited;
    }
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('keeps every committed message, marks the interrupted turn, and the session goes on', async () => {
    const first = spawnDaemon(['serve'], daemonEnv(home.home));
    daemons.push(first);
    await first.peer.call('initialize', { protocolVersion: 1 });
    const { sessionId } = await first.peer.call('session/new', { cwd: workspace, mcpServers: [] });

    replay.enqueue({ body: chatCompletionSse(['The answer ', 'is 42.']) });
    expect(await first.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'question one' }] })).toEqual({
      stopReason: 'end_turn',
    });

    const partial = chatCompletionSse(['Working on ', 'it', ' and more']);
    replay.enqueue({ body: partial, stallAfterBytes: partial.indexOf('and more') - 20 });
    void first.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'question two' }] }).catch(() => undefined);
    // Pieces that arrive in one read go out as one chunk: 'Working on it' ends with the second.
    await first.peer.waitFor((m) => m.params?.update?.content?.text?.endsWith('it') === true);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = spawnDaemon(['serve'], daemonEnv(home.home));
    daemons.push(second);
    await second.peer.call('initialize', { protocolVersion: 1 });
    const loaded = await second.peer.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    expect(agentdMeta(loaded).interruptedTurns).toHaveLength(1);

    const replayed = second.peer.updates(sessionId);
    expect(replayed.map((u) => [u.sessionUpdate, u.content?.text ?? u.title])).toEqual([
      ['user_message_chunk', 'question one'],
      ['session_info_update', 'question one'],
      ['agent_message_chunk', 'The answer is 42.'],
      ['user_message_chunk', 'question two'],
    ]);
    expect(replayed[0]._meta.agentd.interrupted).toBeUndefined();
    expect(replayed[3]._meta.agentd.interrupted).toBe(true);

    replay.enqueue({ body: chatCompletionSse(['Back again.']) });
    expect(await second.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'question three' }] })).toEqual({
      stopReason: 'end_turn',
    });
    const messages = (replay.requests.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    const text = JSON.stringify(messages);
    expect(text).toContain('question one');
    expect(text).toContain('The answer is 42.');
    expect(text).toContain('question two');
    expect(text).toContain('question three');
  });
});
