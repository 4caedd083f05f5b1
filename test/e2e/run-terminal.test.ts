import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { runCli } from '../support/run-cli.js';
import { PYTHON3, requireProgram } from '../support/required-program.js';

const hasPython3 = requireProgram(PYTHON3);

describe('agentd run shows what the agent does, and ends with a code per outcome', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let env: NodeJS.ProcessEnv;
  const config = (extra: Record<string, unknown> = {}): void => {
    home = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } }, ...extra });
    env = daemonEnv(home.home);
  };

  beforeEach(async () => {
    replay = await startReplayServer();
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    writeFileSync(join(workspace, 'notes.txt'), 'remember the milk\n');
  });
  afterEach(async () => {
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('stdout carries the answer alone; stderr the tool calls, a refusal with how to allow it, and how the turn ended', async () => {
    config();
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_r', name: 'read', arguments: { path: 'notes.txt' } }, { id: 'call_w', name: 'write', arguments: { path: 'out.txt', content: 'x' } }]) });
    replay.enqueue({ body: chatCompletionSse(['Milk.']) });
    const result = await runCli(['run', '--cwd', workspace, 'what do my notes say?'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Milk.\n');
    const lines = result.stderr.split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^agentd: → .*notes\.txt/));
    expect(lines).toContainEqual(expect.stringMatching(/^agentd: ✓ .*notes\.txt/));
    expect(lines).toContainEqual(expect.stringMatching(/^agentd: ✗ .*out\.txt: .*permission.*\(allow it with --permission-mode acceptEdits or bypass/i));
    expect(lines).toContainEqual(expect.stringMatching(/^agentd: done · \$\d+\.\d{4}$/));
  });

  it('--continue and --session go on with a stored session; the model gets its history', async () => {
    config();
    replay.enqueue({ body: chatCompletionSse(['First.']) });
    expect((await runCli(['run', '--cwd', workspace, 'remember 7'], env)).code).toBe(0);
    replay.enqueue({ body: chatCompletionSse(['It was 7.']) });
    const continued = await runCli(['run', '--cwd', workspace, '--continue', 'what number?'], env);
    expect(continued.stdout).toBe('It was 7.\n');
    expect(JSON.stringify(replay.requests[1]!.body)).toContain('remember 7');

    const listed = await runCli(['sessions', '--json'], env);
    const sessionId = JSON.parse(listed.stdout.trim()).id;
    replay.enqueue({ body: chatCompletionSse(['Still 7.']) });
    expect((await runCli(['run', '--cwd', workspace, '--session', sessionId, 'sure?'], env)).stdout).toBe('Still 7.\n');
    expect(JSON.stringify(replay.requests[2]!.body)).toContain('what number?');

    const nothing = await runCli(['run', '--cwd', join(workspace, '..'), '--continue', 'hi'], env);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('no session in');
    const both = await runCli(['run', '--continue', '--session', sessionId, 'hi'], env);
    expect(both.stderr).toContain('--session and --continue both pick the session; give one');
  });

  it('exits 4 when the turn runs out of turns, and names an unknown --agent', async () => {
    config({ maxTurns: 1 });
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_r', name: 'read', arguments: { path: 'notes.txt' } }]) });
    const limited = await runCli(['run', '--cwd', workspace, 'read it'], env);
    expect(limited.code).toBe(4);
    expect(limited.stderr).toMatch(/agentd: stopped: out of turns/);

    const unknown = await runCli(['run', '--cwd', workspace, '--agent', 'nosuch', 'hi'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/nosuch/);
  });
});

describe('agentd run and Ctrl-C', () => {
  it('the first Ctrl-C stops the turn with its partial answer stored (exit 130); the session shows it', async () => {
    const { spawn } = await import('node:child_process');
    const { CLI } = await import('../support/daemon-process.js');
    const replay = await startReplayServer();
    const home = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    try {
      const env = daemonEnv(home.home);
      const body = chatCompletionSse(['Partial answer', ' that never ends']);
      replay.enqueue({ body, stallAfterBytes: body.indexOf('never') - 40 });
      const child = spawn(process.execPath, [CLI, 'run', '--cwd', workspace, 'long one'], { env, stdio: 'pipe' });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      await new Promise<void>((resolve) =>
        child.stdout.on('data', (b: Buffer) => {
          stdout += b.toString();
          if (stdout.includes('Partial answer')) resolve();
        }),
      );
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(stdout).toBe('Partial answer\n');
      expect(stderr).toContain('stopping the turn (Ctrl-C again to quit at once)');
      const shown = await runCli(['sessions', 'show', JSON.parse((await runCli(['sessions', '--json'], env)).stdout.trim()).id], env);
      expect(shown.stdout).toContain('## Assistant (local/tiny) (interrupted)\n\nPartial answer');
    } finally {
      await replay.close();
      home.cleanup();
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!hasPython3)('agentd run on a terminal', () => {
  it('asks a permission question there and does what the user answers', { timeout: 60_000 }, async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { existsSync, readFileSync } = await import('node:fs');
    const { fileURLToPath } = await import('node:url');
    const { CLI } = await import('../support/daemon-process.js');
    const replay = await startReplayServer();
    const home = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    try {
      const write = (id: string, path: string) => chatToolCallSse([{ id, name: 'write', arguments: { path, content: 'hi\n' } }]);
      replay.enqueue({ body: write('call_1', 'yes.txt') });
      replay.enqueue({ body: write('call_2', 'no.txt') });
      // The answer comes slowly: meanwhile the terminal shows a spinner.
      const answer = chatCompletionSse(['One written, one refused.']);
      replay.enqueue({ body: answer, chunking: { splitAt: [answer.indexOf('One written')] }, delayMs: 400 });
      const script = fileURLToPath(new URL('../support/run-in-pty.py', import.meta.url));
      const command = [process.execPath, CLI, 'run', '--cwd', workspace, 'write two files'];
      const answers = [['yes.txt needs permission', ''], ['? ', 'y\n'], ['no.txt needs permission', ''], ['? ', 'n\n']];
      const { stdout } = await promisify(execFile)('python3', [script, JSON.stringify(command), JSON.stringify(answers)], { env: daemonEnv(home.home), encoding: 'utf8', timeout: 40_000 });
      const ran = JSON.parse(stdout) as { output: string; code: number };
      expect(ran.code).toBe(0);
      expect(ran.output).toMatch(/\[y\] Allow once/);
      expect(ran.output).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] working…/);
      expect(ran.output).toContain('One written, one refused.');
      expect(readFileSync(join(workspace, 'yes.txt'), 'utf8')).toBe('hi\n');
      expect(existsSync(join(workspace, 'no.txt'))).toBe(false);
    } finally {
      await replay.close();
      home.cleanup();
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe('agentd run on a terminal, Ctrl-C at a permission question', () => {
  it('closes the question, stops the turn and exits 130 without waiting for an answer', { timeout: 60_000 }, async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { existsSync } = await import('node:fs');
    const { fileURLToPath } = await import('node:url');
    const { CLI } = await import('../support/daemon-process.js');
    const replay = await startReplayServer();
    const home = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    try {
      replay.enqueue({ body: chatToolCallSse([{ id: 'call_1', name: 'write', arguments: { path: 'yes.txt', content: 'hi\n' } }]) });
      const script = fileURLToPath(new URL('../support/run-in-pty.py', import.meta.url));
      const command = [process.execPath, CLI, 'run', '--cwd', workspace, 'write a file'];
      // \x03 is what the Ctrl-C key sends: the terminal turns it into SIGINT. Nothing is typed after it.
      const answers = [['yes.txt needs permission', ''], ['? ', '\x03']];
      const { stdout } = await promisify(execFile)('python3', [script, JSON.stringify(command), JSON.stringify(answers)], { env: daemonEnv(home.home), encoding: 'utf8', timeout: 40_000 });
      const ran = JSON.parse(stdout) as { output: string; code: number };
      expect(ran.output).toContain('stopping the turn (Ctrl-C again to quit at once)');
      expect(ran.code).toBe(130);
      expect(existsSync(join(workspace, 'yes.txt'))).toBe(false);
    } finally {
      await replay.close();
      home.cleanup();
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
