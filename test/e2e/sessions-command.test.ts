import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { connectWhenListening, daemonEnv, makeHome, spawnDaemon } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { runCli } from '../support/run-cli.js';

describe('agentd sessions list|show|export|delete', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let env: NodeJS.ProcessEnv;
  let sessionId: string;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    env = daemonEnv(home.home);
    // One stored session: a prompt, a read with its result, an answer.
    writeFileSync(join(workspace, 'notes.txt'), 'remember the milk\n');
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_r', name: 'read', arguments: { path: 'notes.txt' } }]) });
    replay.enqueue({ body: chatCompletionSse(['You noted: ', 'the milk.']) });
    const run = await runCli(['run', '--cwd', workspace, 'What is in my notes?\nBe brief.'], env);
    expect(run.code).toBe(0);
    const listed = await runCli(['sessions', '--json'], env);
    sessionId = JSON.parse(listed.stdout.trim()).id;
  });

  afterEach(async () => {
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('lists as a table: header, short id, relative time, model, cost, directory, title from the first prompt', async () => {
    for (const args of [['sessions'], ['sessions', 'list']]) {
      const result = await runCli(args, env);
      expect(result.code).toBe(0);
      const [header, row, ...rest] = result.stdout.split('\n');
      expect(header).toMatch(/^ID +UPDATED +MODEL +COST +DIRECTORY +TITLE$/);
      expect(row).toMatch(new RegExp(`^${sessionId.slice(0, 8)}  just now +local/tiny +\\$\\d+\\.\\d{4}  ${workspace}  What is in my notes\\?$`));
      expect(rest).toEqual(['']);
    }
  });

  it('show, export and delete take an unambiguous start of the id; an ambiguous one lists the matches', async () => {
    expect((await runCli(['sessions', 'show', sessionId.slice(0, 8)], env)).stdout).toContain('You noted: the milk.');
    expect((await runCli(['sessions', 'export', sessionId.slice(0, 5), '--format', 'json'], env)).stdout).toContain(`"id": "${sessionId}"`);
    // A second session sharing the first character (ids are random: make one that does).
    const { openStore } = await import('../../src/store/open-store.js');
    const { resolveAgentdPaths } = await import('../../src/config/agentd-paths.js');
    const store = openStore(resolveAgentdPaths(env).databaseFile);
    const twin = `${sessionId.slice(0, 1)}-twin`;
    await store.createSession({ id: twin, cwd: workspace });
    store.close();
    const ambiguous = await runCli(['sessions', 'show', sessionId.slice(0, 1)], env);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain(`"${sessionId.slice(0, 1)}" starts 2 session ids (`);
    expect(ambiguous.stderr).toContain(sessionId);
    expect(ambiguous.stderr).toContain(twin);
    const deleted = await runCli(['sessions', 'delete', sessionId.slice(0, 8)], env);
    expect(deleted).toMatchObject({ code: 0, stderr: `agentd: deleted session ${sessionId}\n` });
  });

  it('shows the conversation as Markdown: prompt, tool call with arguments, result, answer', async () => {
    const shown = await runCli(['sessions', 'show', sessionId], env);
    expect(shown.code).toBe(0);
    const text = shown.stdout;
    expect(text).toContain('# What is in my notes?');
    expect(text).toContain(`- directory: \`${workspace}\``);
    expect(text).toContain('## User\n\nWhat is in my notes?\nBe brief.');
    expect(text).toContain('**Tool call** `read` (`call_r`)');
    expect(text).toContain('"path": "notes.txt"');
    expect(text).toMatch(/\*\*Result\*\* of `read` \(`call_r`\)\n\n```+\n[^`]*remember the milk/);
    expect(text).toContain('## Assistant (local/tiny)\n\nYou noted: the milk.');
  });

  it('exports as JSON to a file, and as Markdown to stdout', async () => {
    const file = join(workspace, 'export.json');
    const exported = await runCli(['sessions', 'export', sessionId, '--format', 'json', '-o', file], env);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain(`wrote session ${sessionId} to ${file}`);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    expect(json.session).toMatchObject({ id: sessionId, title: 'What is in my notes?' });
    expect(json.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(json.turns).toHaveLength(1);
    expect((await runCli(['sessions', 'export', sessionId], env)).stdout).toContain('## Assistant');
  });

  it('deletes, says so, and names an unknown id or a missing one clearly', async () => {
    const deleted = await runCli(['sessions', 'delete', sessionId], env);
    expect(deleted).toMatchObject({ code: 0, stderr: `agentd: deleted session ${sessionId}\n` });
    expect((await runCli(['sessions'], env)).stdout).toBe('');
    const again = await runCli(['sessions', 'delete', sessionId], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no session ${sessionId}; agentd sessions lists them`);
    const noId = await runCli(['sessions', 'show'], env);
    expect(noId.stderr).toContain('agentd sessions show needs one session id');
    const badFormat = await runCli(['sessions', 'export', sessionId, '--format', 'pdf'], env);
    expect(badFormat.stderr).toContain('--format must be markdown or json, not "pdf"');
    expect((await runCli(['sessions', 'frob'], env)).stderr).toContain('unknown action "frob"; use list, show ID, export ID or delete ID');
  });

  it('reads beside a running daemon, and deletes through it', async () => {
    const socketPath = join(home.home, 'agentd.sock');
    const daemon = spawnDaemon(['serve', '--socket', socketPath], env);
    try {
      const probe = await connectWhenListening(socketPath);
      probe.close();
      expect((await runCli(['sessions', 'show', sessionId], env)).stdout).toContain('You noted: the milk.');
      const deleted = await runCli(['sessions', 'delete', sessionId], env);
      expect(deleted.code).toBe(0);
      expect(deleted.stderr).toContain(`deleted session ${sessionId} (through the running daemon, pid ${daemon.child.pid})`);
      expect((await runCli(['sessions'], env)).stdout).toBe('');
    } finally {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
  });
});
