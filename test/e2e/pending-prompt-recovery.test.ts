import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome, spawnDaemon, until, type DaemonChild } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

/** Reads the daemon's SQLite file beside it (read-only). */
function readDatabase<T>(home: string, read: (db: Database.Database) => T): T {
  const db = new Database(join(home, 'data', 'agentd.db'), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

describe('a follow-up waiting when its daemon is killed (SQLite)', () => {
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

  function start(): DaemonChild {
    const daemon = spawnDaemon(['serve'], daemonEnv(home.home));
    daemons.push(daemon);
    return daemon;
  }

  it('runs at the next start as its own turn, once, after the interrupted one', async () => {
    const first = start();
    await first.peer.call('initialize', { protocolVersion: 1 });
    const { sessionId } = await first.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    const partial = chatCompletionSse(['Working on ', 'it', ' and more']);
    replay.enqueue({ body: partial, stallAfterBytes: partial.indexOf('and more') - 20 });
    void first.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'question one' }] }).catch(() => undefined);
    await first.peer.waitFor((m) => m.params?.update?.content?.text?.endsWith('it') === true);
    expect(await first.peer.call('session/followUp', { sessionId, prompt: [{ type: 'text', text: 'then follow me' }] })).toEqual({ queued: 1 });
    first.child.kill('SIGKILL');
    await first.exited;

    replay.enqueue({ body: chatCompletionSse(['Followed.']) });
    const second = start();
    await second.peer.call('initialize', { protocolVersion: 1 });
    // Any request that needs the daemon built waits for its start-up, the rescue included.
    await second.peer.call('session/list', {});
    const turnsEnded = (): Array<{ status: string }> =>
      readDatabase(home.home, (db) => db.prepare('SELECT status FROM turns WHERE session_id = ? ORDER BY started_at, rowid').all(sessionId) as Array<{ status: string }>);
    await until(() => turnsEnded().map((t) => t.status).join() === 'interrupted,end_turn', 10_000, 'the follow-up to run as its own turn');
    expect(replay.requests).toHaveLength(2);
    const asked = JSON.stringify((replay.requests[1]!.body as { messages: unknown[] }).messages);
    expect(asked).toContain('question one');
    expect(asked.split('then follow me')).toHaveLength(2);
    expect(readDatabase(home.home, (db) => db.prepare('SELECT COUNT(*) AS n FROM pending_prompts').get())).toEqual({ n: 0 });

    await second.peer.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    const replayed = second.peer.updates(sessionId).filter((u) => u.sessionUpdate !== 'session_info_update');
    expect(replayed.map((u) => [u.sessionUpdate, u.content?.text])).toEqual([
      ['user_message_chunk', 'question one'],
      ['user_message_chunk', 'then follow me'],
      ['agent_message_chunk', 'Followed.'],
    ]);

    // Never twice: a later start finds nothing left to run.
    second.child.kill('SIGKILL');
    await second.exited;
    const third = start();
    await third.peer.call('initialize', { protocolVersion: 1 });
    await third.peer.call('session/list', {});
    expect(replay.requests).toHaveLength(2);
    expect(turnsEnded().map((t) => t.status)).toEqual(['interrupted', 'end_turn']);
  });
});
