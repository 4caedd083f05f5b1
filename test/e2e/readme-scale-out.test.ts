import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { loadConfig } from '../../src/config/load-config.js';
import { agentdOnPath } from '../support/agentd-on-path.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { POSTGRES, postgresServer, postgresUrl } from '../support/postgres-server.js';
import { readmeCodeBlocks } from '../support/readme-code-blocks.js';
import { requireProgram } from '../support/required-program.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

const HEADING = '## Scale out';

/** The README's "Scale out" steps: the SQL as printed on a real server, the config as printed through the loader, the commands by sh on two "machines". */
describe.skipIf(!requireProgram(POSTGRES))("the README's scale-out steps", () => {
  const [sql] = readmeCodeBlocks('README.md', HEADING, 'sql');
  const [config] = readmeCodeBlocks('README.md', HEADING, 'json');
  const [commands] = readmeCodeBlocks('README.md', HEADING, 'sh');

  it('the config block is accepted by the config loader as printed', () => {
    const home = makeHome();
    try {
      const file = join(home.home, 'cluster.json');
      writeFileSync(file, config!);
      const loaded = loadConfig({ configFile: file, cwd: home.home, paths: resolveAgentdPaths(daemonEnv(home.home)) });
      expect(loaded.config.store).toEqual({ type: 'postgres', url: 'postgres://agentd:change-me@db.internal:5432/agentd' });
      expect(loaded.config.cluster).toEqual({ leaseMs: 10000, concurrency: 8, roots: ['/srv/work'] });
    } finally {
      home.cleanup();
    }
  });

  describe('the database, then the commands on two machines sharing it', () => {
    let replay: ReplayServer;
    let bin: ReturnType<typeof agentdOnPath>;
    let cwd: string;
    const homes: Array<ReturnType<typeof makeHome>> = [];
    const shells: number[] = [];
    let url: string;

    beforeAll(async () => {
      // doctor lists the models; each queued prompt gets a short answer.
      replay = await startReplayServer({
        respond: (request) =>
          request.method === 'GET'
            ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ object: 'list', data: [{ id: 'e2e-model', object: 'model' }] }) }
            : { body: chatCompletionSse(['Nothing changed.']) },
      });
      bin = agentdOnPath();
      cwd = mkdtempSync(join(tmpdir(), 'agentd-proj-'));
      const { socketDir } = await postgresServer();
      // The SQL as printed, by the tests' superuser.
      const admin = new pg.Client({ connectionString: postgresUrl(socketDir, 'postgres') });
      await admin.connect();
      try {
        for (const statement of sql!.split(';').map((text) => text.trim()).filter(Boolean)) await admin.query(statement);
      } finally {
        await admin.end();
      }
      // The role and database it made, reached on this server's socket (the tests' server trusts local logins).
      url = `postgres://agentd:change-me@localhost/agentd?host=${encodeURIComponent(socketDir)}`;
    });
    afterAll(async () => {
      // Each block leaves its `agentd serve --socket &` running: stop the process groups it started in.
      for (const pid of shells) {
        try {
          process.kill(-pid, 'SIGTERM');
        } catch {
          // Already gone.
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await replay?.close();
      for (const home of homes) home.cleanup();
      bin?.cleanup();
      if (cwd) rmSync(cwd, { recursive: true, force: true });
    });

    async function onMachine(): Promise<{ code: number | null; stdout: string; stderr: string }> {
      const written = JSON.parse(config!) as Record<string, unknown> & { store: { url: string }; cluster: Record<string, unknown> };
      const home = makeHome({
        ...written,
        model: 'local/e2e-model',
        providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, maxRetries: 0 } },
        store: { ...written.store, url },
        // The folder the commands run in stands for the README's /srv/work.
        cluster: { ...written.cluster, roots: [cwd] },
      });
      homes.push(home);
      const env = { ...daemonEnv(home.home), PATH: bin.path(process.env) };
      const child = spawn('sh', ['-e', '-c', commands!], { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      shells.push(child.pid!);
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
      child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
      // 'exit', not 'close': the background daemon keeps the output pipes open.
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { code, stdout, stderr };
    }

    it('each machine checks the database, joins, queues a run that a daemon runs, and lists every session', { timeout: 120_000 }, async () => {
      const first = await onMachine();
      expect(first.code, `${first.stdout}\n${first.stderr}`).toBe(0);
      expect(first.stdout).toMatch(/session store +PostgreSQL at postgres:\/\/agentd:\*\*\*@localhost\/agentd\?host=\S+ answers/);
      expect(first.stdout).not.toContain('change-me');
      const second = await onMachine();
      expect(second.code, `${second.stdout}\n${second.stderr}`).toBe(0);
      // Each `run --detach` printed its session id; the second machine's list shows both.
      const ids = [first.stdout, second.stdout].map((out) => /^([0-9a-f-]{36})$/m.exec(out)?.[1]);
      expect(ids.every((id) => id !== undefined), `${first.stdout}\n${second.stdout}`).toBe(true);
      for (const id of ids) expect(second.stdout).toContain(id!.slice(0, 8));
      // Both queued prompts ran, once each, on whichever daemon took them.
      await expect.poll(() => replay.requests.filter((request) => request.method === 'POST').length, { timeout: 30_000 }).toBe(2);
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        await expect
          .poll(async () => (await db.query<{ status: string }>('SELECT status FROM turns ORDER BY started_at')).rows.map((row) => row.status), { timeout: 30_000 })
          .toEqual(['end_turn', 'end_turn']);
        const daemons = await db.query<{ id: string }>('SELECT id FROM daemons');
        expect(daemons.rows).toHaveLength(2);
      } finally {
        await db.end();
      }
    });
  });
});
