import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../../src/config/agentd-paths.js';
import { openStore } from '../../../src/store/open-store.js';
import { daemonEnv, makeHome } from '../../support/daemon-process.js';
import { startInProcessDaemon } from '../../support/in-process-daemon.js';

const TURNS = 500;

/** Stores a 2,000-message session (prompt, call, result, answer per turn; a compaction summary midway); returns the updates a load must replay, in order. */
async function storeLongSession(home: string, sessionId: string, cwd: string): Promise<string[]> {
  const store = openStore(resolveAgentdPaths({ AGENTD_HOME: home }).databaseFile);
  const expected: string[] = [];
  try {
    await store.createSession({ id: sessionId, cwd });
    for (let turn = 1; turn <= TURNS; turn++) {
      const turnId = `t${turn}`;
      await store.startTurn(sessionId, turnId);
      const prompt = `prompt ${turn}`;
      if (turn === TURNS / 2) {
        // Compaction summaries are bookkeeping: never replayed.
        const meta = { agentd: { compaction: { kept: 2, acknowledged: true, replaced: 4 * turn - 2 } } };
        await store.appendMessage({ sessionId, turnId, role: 'user', content: [{ type: 'text', text: '<summary of the earlier conversation>\nsummary\n</summary>' }], meta });
      }
      await store.appendMessage({ sessionId, turnId, role: 'user', content: [{ type: 'text', text: prompt }], meta: { acp: [{ type: 'text', text: prompt }] } });
      expected.push(`${turnId} user_message_chunk ${prompt}`);
      const callId = `call-${turn}`;
      await store.appendMessage({ sessionId, turnId, role: 'assistant', content: [{ type: 'text', text: `reading ${turn}` }, { type: 'tool_call', id: callId, name: 'read', args: { path: `f${turn}.txt` } }] });
      expected.push(`${turnId} agent_message_chunk reading ${turn}`, `${turnId} tool_call ${callId}`);
      const output = `contents of f${turn}.txt `.repeat(1 + (turn % 40));
      const shown = { [callId]: { title: `Read f${turn}.txt`, kind: 'read', locations: [], status: 'completed', content: [{ type: 'content', content: { type: 'text', text: output } }] } };
      await store.appendMessage({ sessionId, turnId, role: 'tool', content: [{ type: 'tool_result', toolCallId: callId, toolName: 'read', content: [{ type: 'text', text: output }] }], meta: { shownToolCalls: shown } });
      expected.push(`${turnId} tool_call_update ${callId} ${output}`);
      await store.appendMessage({ sessionId, turnId, role: 'assistant', content: [{ type: 'text', text: `answer ${turn}` }] });
      expected.push(`${turnId} agent_message_chunk answer ${turn}`);
      await store.endTurn(turnId, 'end_turn');
    }
    expect(await store.listMessages(sessionId)).toHaveLength(4 * TURNS + 1);
  } finally {
    store.close();
  }
  return expected;
}

/** One line per replayed update: its turn, kind and what identifies it. */
function describeUpdate(update: any): string {
  const turn = update._meta?.agentd?.turnId;
  switch (update.sessionUpdate) {
    case 'tool_call':
      return `${turn} tool_call ${update.toolCallId}`;
    case 'tool_call_update':
      return `${turn} tool_call_update ${update.toolCallId} ${update.content?.[0]?.content?.text}`;
    default:
      return `${turn} ${update.sessionUpdate} ${update.content?.text}`;
  }
}

describe('session/load of a long session', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('replays every one of 2,000 stored messages, in order, before its answer; again once the session is live', async () => {
    const home = makeHome({});
    cleanups.push(home.cleanup);
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const sessionId = 'long-session';
    const expected = await storeLongSession(home.home, sessionId, workspace);

    const daemon = startInProcessDaemon(daemonEnv(home.home), process.cwd());
    cleanups.push(() => daemon.close());
    await daemon.peer.call('initialize', { protocolVersion: 1 });

    for (const peer of [daemon.peer, daemon.connect()]) {
      if (peer !== daemon.peer) await peer.call('initialize', { protocolVersion: 1 });
      const before = peer.received.length;
      const answer = await peer.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
      expect(answer.error).toBeUndefined();
      const messages = peer.received.slice(before);
      // Everything replayed came before the answer, and the answer is the last message.
      expect(messages.at(-1)).toBe(answer);
      const updates = messages.slice(0, -1).filter((m) => m.method === 'session/update' && m.params?.sessionId === sessionId);
      expect(updates).toHaveLength(messages.length - 1);
      expect(updates.map((m) => describeUpdate(m.params.update))).toEqual(expected);
    }
  });
});
