import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { permissionsStoreDir } from '../../src/tools/permissions/manage-remembered-permissions.js';
import { rememberPermission } from '../../src/tools/permissions/remembered-permissions.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { CLI, daemonEnv, makeHome } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { runCli } from '../support/run-cli.js';
import { ACTS_ON_TERMINAL, PAYLOADS } from '../session/escape-terminal-payloads.js';
import { PYTHON3, requireProgram } from '../support/required-program.js';

const hasPython3 = requireProgram(PYTHON3);

/** The command of the terminal attack (F15 in SECURITY.md): on a raw terminal it shows as "agentd: Run: npm test". */
const FINDING = 'rm -f precious.txt #\r\x1b[2Kagentd: Run: npm test';

describe.skipIf(!hasPython3)('F15 agentd run on a real terminal', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    writeFileSync(join(workspace, 'precious.txt'), 'keep me\n');
  });
  afterEach(async () => {
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('F15 terminal: the finding\'s command is shown with its \\r\\e[2K on a pty, and an answer\'s OSC title is printed, not run', { timeout: 60_000 }, async () => {
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_1', name: 'bash', arguments: { command: FINDING, description: 'Run the tests' } }]) });
    replay.enqueue({ body: chatCompletionSse(['Tests pass.\x1b]0;all good\x07 \x1b]8;;https://evil.example/\x1b\\docs\x1b]8;;\x1b\\']) });
    const script = fileURLToPath(new URL('../support/run-in-pty.py', import.meta.url));
    const command = [process.execPath, CLI, 'run', '--cwd', workspace, 'run the tests'];
    const { stdout } = await promisify(execFile)('python3', [script, JSON.stringify(command), JSON.stringify([['? ', 'n\n']])], {
      env: daemonEnv(home.home),
      encoding: 'utf8',
      timeout: 40_000,
    });
    const ran = JSON.parse(stdout) as { output: string; code: number };
    expect(ran.code).toBe(0);
    const question = ran.output.slice(ran.output.indexOf('agentd: Run: '), ran.output.indexOf('needs permission'));
    expect(question).toBe('agentd: Run: rm -f precious.txt #\\r\\e[2Kagentd: Run: npm test ');
    expect(ran.output).not.toContain('\r\x1b[2Kagentd: Run: npm test');
    expect(ran.output).toContain('Tests pass.\\e]0;all good\\a \\e]8;;https://evil.example/\\e\\docs\\e]8;;\\e\\');
    expect(ran.output).not.toMatch(/\x1b\]/);
    expect(existsSync(join(workspace, 'precious.txt'))).toBe(true);
  });
});

describe('F15 agentd sessions and permissions print what the model wrote visibly', () => {
  let home: ReturnType<typeof makeHome>;
  beforeEach(async () => {
    home = makeHome({});
  });
  afterEach(() => home.cleanup());

  /** A stored session as a model would leave it: its title, an answer and a tool call all carrying `raw`. */
  async function storeSession(raw: string): Promise<string> {
    const store = openStore(join(home.home, 'data', 'agentd.db'));
    try {
      await store.createSession({ id: 'sess-1', cwd: `/work/repo${raw.slice(0, 3)}`, title: `Fix the build ${raw}` });
      await store.startTurn('sess-1', 'turn-1');
      await store.appendMessage({ sessionId: 'sess-1', turnId: 'turn-1', role: 'user', content: [{ type: 'text', text: 'fix it' }] });
      await store.appendMessage({
        sessionId: 'sess-1',
        turnId: 'turn-1',
        role: 'assistant',
        content: [
          { type: 'text', text: `Done.\n\t${raw}` },
          { type: 'tool_call', id: 'call_1', name: `bash${raw}`, args: { command: raw } },
        ],
      });
      await store.endTurn('turn-1', 'end_turn');
    } finally {
      store.close();
    }
    return 'sess-1';
  }

  const cases = [PAYLOADS[0]!, PAYLOADS[4]!, PAYLOADS[5]!, PAYLOADS[10]!];

  it.each(cases)('F15 terminal: agentd sessions lists a title with $name visibly', async ({ raw, shown }) => {
    await storeSession(raw);
    const listed = await runCli(['sessions'], daemonEnv(home.home));
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`  Fix the build ${shown}\n`);
    expect(listed.stdout).not.toMatch(ACTS_ON_TERMINAL);
    const json = await runCli(['sessions', '--json'], daemonEnv(home.home));
    expect(json.stdout).not.toMatch(ACTS_ON_TERMINAL);
    expect(JSON.parse(json.stdout).title).toBe(`Fix the build ${raw}`);
  });

  it.each(cases)('F15 terminal: agentd sessions show prints a title, answer and tool name with $name visibly; export -o keeps the file exact', async ({ raw, shown }) => {
    const id = await storeSession(raw);
    const env = daemonEnv(home.home);
    const show = await runCli(['sessions', 'show', id], env);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(`# Fix the build ${shown}\n`);
    expect(show.stdout).toContain(`Done.\n\t${shown}\n`);
    expect(show.stdout).toContain(`\`bash${shown}\``);
    expect(show.stdout.replaceAll('\t', '')).not.toMatch(ACTS_ON_TERMINAL);
    const exported = await runCli(['sessions', 'export', id], env);
    expect(exported.stdout).toContain(`Done.\n\t${shown}\n`);
    const file = join(home.home, 'out.md');
    await runCli(['sessions', 'export', id, '-o', file], env);
    expect(readFileSync(file, 'utf8')).toContain(`Done.\n\t${raw}\n`);
  });

  it('F15 terminal: agentd permissions list shows a remembered command\'s controls visibly', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    try {
      await rememberPermission(workspace, permissionsStoreDir(join(home.home, 'data')), { tool: 'bash', args: { command: FINDING }, outcome: 'allow_always' });
      const listed = await runCli(['permissions', 'list', '--cwd', workspace], daemonEnv(home.home));
      expect(listed.stdout).toContain('always allow   bash(rm -f precious.txt #\\r\\e[2Kagentd: Run: npm test)');
      expect(listed.stdout).not.toMatch(ACTS_ON_TERMINAL);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
