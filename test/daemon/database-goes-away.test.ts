import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startInProcessDaemon } from '../support/in-process-daemon.js';
import { POSTGRES, createDatabase, restartPostgresServer, startPostgresServer, stopPostgresServer } from '../support/postgres-server.js';
import { requireProgram } from '../support/required-program.js';
import { startReplayServer } from '../support/replay-server.js';

/**
 * A daemon on a PostgreSQL store whose server stops: requests fail with an error naming the
 * store, the daemon does not crash, and once the server is back it serves again — prompts,
 * queued prompts and what other daemons would see — without a restart.
 */
describe.skipIf(!requireProgram(POSTGRES))('the database going away under a daemon', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('fails prompts with the store named while it is gone, and serves again once it is back', { timeout: 120_000 }, async () => {
    // A server of this test's own: stopping the shared one would pull it from under other tests.
    const server = startPostgresServer();
    const url = await createDatabase(server, 'goes_away');
    const replay = await startReplayServer({ respond: () => ({ body: chatCompletionSse(['Fine.']) }) });
    cleanups.push(() => replay.close());
    const home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, maxRetries: 0 } } });
    cleanups.push(() => home.cleanup());
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const daemon = startInProcessDaemon(daemonEnv(home.home, { AGENTD_STORE_URL: url }), workspace);
    cleanups.push(() => daemon.close());
    const { peer } = daemon;
    // agentd's own events too: the queued turn's end is one.
    await peer.call('initialize', { protocolVersion: 1, _meta: { agentd: { events: true } } });
    const { sessionId } = (await peer.call('session/new', { cwd: workspace, mcpServers: [] })) as { sessionId: string };
    const prompt = (text: string) => peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }, 60_000);
    expect((await prompt('before')).result).toMatchObject({ stopReason: 'end_turn' });

    stopPostgresServer(server);
    const failed = await prompt('while it is gone');
    expect(failed.error?.message).toMatch(/PostgreSQL store/);
    expect(failed.error?.message).toMatch(/check (store\.url|that the server is running)/);

    restartPostgresServer(server);
    // Pools reconnect on their next query; the first may still meet a connection the restart cut.
    // The answer's error, if it keeps failing, is what a failure of this line shows.
    await expect.poll(async () => { const answer = await prompt('after'); return answer.result ?? answer.error; }, { timeout: 60_000, interval: 500 }).toMatchObject({ stopReason: 'end_turn' });
    const queued = await peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'queued after' }], _meta: { agentd: { queue: true } } }, 60_000);
    expect(queued.result).toMatchObject({ _meta: { agentd: { outcome: 'queued', queue: 'pg-boss' } } });
    const jobId = (queued.result as { _meta: { agentd: { jobId: string } } })._meta.agentd.jobId;
    await peer.waitFor((message) => JSON.stringify(message).includes('"turn_end"') && JSON.stringify(message).includes(jobId), 30_000, 'the queued turn ending');
    // Its LISTEN connections (work-queue wake-ups, other daemons' session updates) are open again.
    const listening = async (): Promise<string[]> => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string }>("SELECT application_name AS name FROM pg_stat_activity WHERE application_name LIKE 'agentd%' ORDER BY 1");
        return rows.map((row) => row.name.replace(/ dmn_[0-9a-f]+$/, ''));
      } finally {
        await client.end();
      }
    };
    await expect.poll(listening, { timeout: 30_000 }).toEqual(expect.arrayContaining(['agentd wake-ups', 'agentd-updates-listener']));
    expect(daemon.logs.join('\n')).toContain('pg-boss wake-ups: connected again');
    expect(daemon.logs.join('\n')).not.toMatch(/uncaught|unhandled/i);
  });
});
