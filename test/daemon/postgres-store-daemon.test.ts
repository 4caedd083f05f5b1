import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { POSTGRES, createTestDatabase } from '../support/postgres-server.js';
import { requireProgram } from '../support/required-program.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

describe.skipIf(!requireProgram(POSTGRES))('a daemon with "store": {"type": "postgres"}', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemon: InProcessDaemon | undefined;
  let url: string;

  beforeEach(async () => {
    replay = await startReplayServer();
    url = await createTestDatabase();
    home = makeHome({
      model: 'local/e2e-model',
      providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } },
      store: { type: 'postgres', url },
    });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  });

  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('runs a prompt end to end and keeps the session, its turn and messages in PostgreSQL, not in the SQLite file', async () => {
    daemon = startInProcessDaemon(daemonEnv(home.home), process.cwd());
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    replay.enqueue({ body: chatCompletionSse(['Stored ', 'in Postgres.']) });
    const { sessionId } = await daemon.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    const answer = await daemon.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Where are you kept?' }] });
    expect(answer.stopReason).toBe('end_turn');
    await daemon.close();
    daemon = undefined;

    const store = await openPostgresStore(url);
    try {
      expect((await store.getSession(sessionId))?.cwd).toBe(workspace);
      expect((await store.listTurns(sessionId)).map((turn) => turn.status)).toEqual(['end_turn']);
      const messages = await store.listMessages(sessionId);
      expect(messages.map((message) => [message.seq, message.role])).toEqual([
        [1, 'user'],
        [2, 'assistant'],
      ]);
      expect(JSON.stringify(messages[1]!.content)).toContain('Stored in Postgres.');
    } finally {
      await store.close();
    }
    expect(existsSync(resolveAgentdPaths(daemonEnv(home.home)).databaseFile)).toBe(false);
  });

  it('reopens the session from PostgreSQL after a restart, as AGENTD_STORE_URL chooses', async () => {
    const env = daemonEnv(home.home, { AGENTD_STORE_URL: url });
    daemon = startInProcessDaemon(env, process.cwd());
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    replay.enqueue({ body: chatCompletionSse(['First answer.']) });
    const { sessionId } = await daemon.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    await daemon.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Hello' }] });
    await daemon.close();

    daemon = startInProcessDaemon(env, process.cwd());
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    const listed = await daemon.peer.call('session/list', {});
    expect(listed.sessions.map((session: { sessionId: string }) => session.sessionId)).toEqual([sessionId]);
  });
});
