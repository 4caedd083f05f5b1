import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { startClientDaemon, type ClientDaemon } from '../support/client-daemon.js';
import { connectPeer, daemonEnv, makeHome, until } from '../support/daemon-process.js';
import { runCli } from '../support/run-cli.js';

/*
 * `agentd run --detach` as a process beside a serving daemon: it queues the prompt, prints
 * the session id and exits while the turn has not run; the turn runs on in the daemon,
 * headless, though the client that queued it is gone.
 */
describe('agentd run --detach', () => {
  let served: ClientDaemon | undefined;
  let cleanup: (() => void) | undefined;
  afterEach(async () => {
    await served?.close();
    cleanup?.();
    served = undefined;
    cleanup = undefined;
  });

  it('queues the prompt in the running daemon, prints the session id and exits before the turn runs; the turn runs on', async () => {
    served = await startClientDaemon();
    const { replay, env, workspace, socketPath } = served;
    // The model never answers this one: the run could not have waited for the turn.
    replay.enqueue({ hangBeforeHeaders: true });
    const queued = await runCli(['run', '--detach', '--json', '--cwd', workspace, 'Write the changelog'], env);
    expect(queued.stderr).toBe('');
    expect(queued.code).toBe(0);
    const line = JSON.parse(queued.stdout) as { sessionId: string; jobId: string; queue: string };
    expect(line).toEqual({ sessionId: expect.any(String), jobId: expect.any(String), queue: 'in-process' });

    // The turn started in the daemon after the run process had gone.
    await until(() => replay.requests.length === 1, 15_000, 'the queued prompt to reach the model');
    const peer = await connectPeer(socketPath);
    try {
      await peer.call('initialize', { protocolVersion: 1 });
      await peer.call('session/abort', { sessionId: line.sessionId });
    } finally {
      peer.close();
    }
    const exported = await runCli(['sessions', 'export', line.sessionId, '--format', 'json'], env);
    const record = JSON.parse(exported.stdout) as { turns: Array<{ id: string; status: string }> };
    expect(record.turns.map((turn) => [turn.id, turn.status])).toEqual([[line.jobId, 'cancelled']]);

    // Without --json: the session id on stdout, how to follow it on stderr; --session goes on with it.
    replay.enqueue({ body: chatCompletionSse(['Changelog written.']) });
    const again = await runCli(['run', '--detach', '--session', line.sessionId, 'Now write it'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`${line.sessionId}\n`);
    expect(again.stderr).toContain(`agentd sessions show ${line.sessionId}`);
    await until(async () => (await runCli(['sessions', 'show', line.sessionId], env)).stdout.includes('Changelog written.'), 15_000, 'the second turn to be stored');
  }, 60_000);

  it('refuses when no daemon serves the data directory, and refuses --permission-mode, starting nothing', async () => {
    const home = makeHome({});
    cleanup = home.cleanup;
    const env = daemonEnv(home.home);
    const alone = await runCli(['run', '--detach', 'Write the changelog'], env);
    expect(alone.code).not.toBe(0);
    expect(alone.stderr).toContain('agentd run --detach queues the prompt in the running daemon, and none runs: start one with `agentd serve`');
    const mode = await runCli(['run', '--detach', '--permission-mode', 'acceptEdits', 'Write the changelog'], env);
    expect(mode.code).not.toBe(0);
    expect(mode.stderr).toContain('agentd run --detach: --permission-mode answers the questions of a run that waits');
    // Neither made a store: no session was started anywhere.
    const listed = await runCli(['sessions', 'list', '--json'], env);
    expect(listed.stdout).toBe('');
  }, 60_000);
});
