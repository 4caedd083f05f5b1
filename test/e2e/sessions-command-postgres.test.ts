import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { POSTGRES, createTestDatabase } from '../support/postgres-server.js';
import { requireProgram } from '../support/required-program.js';
import { runCli } from '../support/run-cli.js';

/*
 * `agentd sessions` reads the store the daemon uses: on PostgreSQL the shared database, from
 * a machine whose data directory holds no session at all.
 */
describe.skipIf(!requireProgram(POSTGRES))('agentd sessions on a PostgreSQL store', () => {
  let url: string;
  let workspace: string;
  let sessionId: string;
  const cleanups: Array<() => void> = [];

  beforeEach(async () => {
    url = await createTestDatabase();
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    // A session another daemon stored: a prompt and an answer.
    const store = await openPostgresStore(url);
    try {
      sessionId = 'ses_shared_0001';
      await store.createSession({ id: sessionId, cwd: workspace, title: 'Shared review' });
      await store.startTurn(sessionId, 'turn_1');
      await store.appendMessage({ sessionId, turnId: 'turn_1', role: 'user', content: [{ type: 'text', text: 'Review the shared branch' }] });
      await store.appendMessage({ sessionId, turnId: 'turn_1', role: 'assistant', content: [{ type: 'text', text: 'The branch looks fine.' }], model: 'local/tiny', costUsd: 0.0125 });
      await store.endTurn('turn_1', 'end_turn');
    } finally {
      await store.close();
    }
  });

  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  function home(config: Record<string, unknown> = {}): string {
    const made = makeHome(config);
    cleanups.push(made.cleanup);
    return made.home;
  }

  it('AGENTD_STORE_URL: lists, shows and exports the shared sessions, and creates no SQLite file', async () => {
    const env = daemonEnv(home(), { AGENTD_STORE_URL: url });
    const listed = await runCli(['sessions', 'list'], env);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const [header, row, ...rest] = listed.stdout.split('\n');
    expect(header).toMatch(/^ID +UPDATED +MODEL +COST +DIRECTORY +TITLE$/);
    expect(row).toMatch(new RegExp(`^ses_shar  just now +local/tiny +\\$0\\.0125  ${workspace}  Shared review$`));
    expect(rest).toEqual(['']);
    const json = await runCli(['sessions', '--json'], env);
    expect(JSON.parse(json.stdout.trim())).toMatchObject({ id: sessionId, title: 'Shared review' });
    expect((await runCli(['sessions', 'show', 'ses_sh'], env)).stdout).toContain('The branch looks fine.');
    const exported = await runCli(['sessions', 'export', sessionId, '--format', 'json'], env);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain(`"id": "${sessionId}"`);
    expect(existsSync(resolveAgentdPaths(env).databaseFile)).toBe(false);
  }, 60_000);

  it('the config file\'s store chooses PostgreSQL as the daemon\'s does; delete removes the shared session', async () => {
    const env = daemonEnv(home({ store: { type: 'postgres', url } }));
    expect((await runCli(['sessions', 'list', '--json'], env)).stdout).toContain(sessionId);
    const deleted = await runCli(['sessions', 'delete', 'ses_shared'], env);
    expect(deleted).toMatchObject({ code: 0, stderr: `agentd: deleted session ${sessionId}\n` });
    expect(await runCli(['sessions', 'list'], env)).toMatchObject({ code: 0, stdout: '' });
    const store = await openPostgresStore(url);
    try {
      expect(await store.getSession(sessionId)).toBeUndefined();
    } finally {
      await store.close();
    }
  }, 60_000);

  it('a database that cannot be reached is one error naming the command and the store, password hidden, for every action', async () => {
    const nowhere = mkdtempSync(join(tmpdir(), 'agentd-no-pg-'));
    cleanups.push(() => rmSync(nowhere, { recursive: true, force: true }));
    // A socket folder with no server in it: the connection is refused at once.
    const env = daemonEnv(home(), { AGENTD_STORE_URL: `postgres://agentd:s3cret-pw@localhost/agentd?host=${encodeURIComponent(nowhere)}` });
    for (const [action, args] of [['list', ['sessions']], ['show', ['sessions', 'show', 'ses_x']], ['export', ['sessions', 'export', 'ses_x']], ['delete', ['sessions', 'delete', 'ses_x']]] as const) {
      const result = await runCli([...args], env);
      expect(result.code, action).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(new RegExp(`^agentd sessions ${action}: cannot use the PostgreSQL store at postgres://agentd:\\*\\*\\*@localhost/agentd\\?host=`));
      expect(result.stderr).toContain('check store.url (or AGENTD_STORE_URL) and that the server is running');
      expect(result.stderr).not.toContain('s3cret-pw');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  }, 60_000);
});
