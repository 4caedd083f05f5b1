import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { connectWhenListening, daemonEnv, makeHome, spawnDaemon, type DaemonChild } from '../support/daemon-process.js';
import type { WireMessage } from '../support/rpc-peer.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { runCli } from '../support/run-cli.js';

// F16 through a process: `agentd run --permission-mode bypass` goes through the daemon that
// owns the data directory and answers its own prompt's questions; an editor that goes on
// with that session afterwards is asked, as in any session of the project.
describe('F16 agentd run --permission-mode through an owner daemon', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let owner: DaemonChild | undefined;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  });

  afterEach(async () => {
    owner?.child.kill('SIGKILL');
    await owner?.exited;
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it.each(['a new session', 'the editor\'s open session (--session)'])(
    'F16 run --permission-mode bypass writes in %s, then the editor\'s write in that session is asked',
    async (where) => {
      const env = daemonEnv(home.home);
      owner = spawnDaemon(['serve', '--socket'], env);
      const editor = await connectWhenListening(join(home.home, 'run', 'agentd.sock'));
      await editor.call('initialize', { protocolVersion: 1 });
      // Every follower is asked at once and the first answer settles it: during the run the
      // editor following the session is sent the question too but leaves it to the run (whose
      // bypass answers at once; the editor's copy is withdrawn, possibly before its handler
      // runs); after the run the editor's own question is answered by the editor, with a reject.
      let asked = 0;
      let runFinished = false;
      editor.onRequest('session/request_permission', () => {
        if (!runFinished) return new Promise(() => {});
        asked++;
        return { outcome: { outcome: 'selected', optionId: 'reject_once' } };
      });
      const own = where.startsWith('the editor') ? ((await editor.call('session/new', { cwd: workspace, mcpServers: [] })).sessionId as string) : undefined;

      replay.enqueue({ body: chatToolCallSse([{ id: 'call_run', name: 'write', arguments: { path: 'run.txt', content: 'by run\n' } }]) });
      replay.enqueue({ body: chatCompletionSse(['written']) });
      const run = await runCli(['run', '--permission-mode', 'bypass', '--cwd', workspace, ...(own ? ['--session', own] : []), 'write run.txt'], env);
      // The shared daemon is the normal path: no line about it.
      expect(run.stderr).not.toMatch(/owns the data directory|running the prompt there/);
      expect(run.code).toBe(0);
      expect(readFileSync(join(workspace, 'run.txt'), 'utf8')).toBe('by run\n');
      const runQuestion = (m: WireMessage): boolean =>
        m.method === 'session/request_permission' && (m.params as { toolCall: { toolCallId: string } }).toolCall.toolCallId === 'call_run';
      // Sent to the editor only when it follows the session the run prompts.
      if (own) await editor.waitFor(runQuestion, 5_000, "the run's question on the editor's connection");
      else expect(editor.received.some(runQuestion)).toBe(false);
      runFinished = true;

      const sessionId = own ?? ((await editor.call('session/list', { cwd: workspace })).sessions[0]!.sessionId as string);
      if (!own) await editor.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
      replay.enqueue({ body: chatToolCallSse([{ id: 'call_editor', name: 'write', arguments: { path: 'editor.txt', content: 'x\n' } }]) });
      replay.enqueue({ body: chatCompletionSse(['ok']) });
      await editor.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write editor.txt' }] });
      expect(asked).toBe(1);
      expect(existsSync(join(workspace, 'editor.txt'))).toBe(false);
    },
    30_000,
  );
});
