import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireProgram } from '../support/required-program.js';
import { runProcess } from '../support/run-process.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, toolResultText } from '../support/chat-tool-call-sse.js';
import { startClientDaemon, type ClientDaemon } from '../support/client-daemon.js';
import { until } from '../support/daemon-process.js';

/**
 * The Emacs package (clients/emacs) in a real `emacs --batch` against a real daemon: the
 * ERT tests in clients/emacs/test spawn `node CLI serve --stdio`, which bridges to the
 * harness's socket daemon (same AGENTD_HOME), drive the package's commands, and write
 * what they saw to a JSON summary; this file checks the summary and what the model got.
 */
const EMACS_DIR = fileURLToPath(new URL('../../clients/emacs', import.meta.url));
const hasEmacs = requireProgram({ command: 'emacs', debianPackage: 'emacs-nox', neededBy: 'the Emacs package tests' });

interface EmacsRun {
  code: number | null;
  output: string;
}

/** Runs `emacs --batch -Q` with the package on the load path and ARGS; resolves when it exits. */
async function runEmacs(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 90_000): Promise<EmacsRun> {
  const run = await runProcess('emacs', ['--batch', '-Q', '-L', EMACS_DIR, ...args], { env, timeoutMs });
  return { code: run.code, output: run.stdout + run.stderr };
}

/** ERT on the e2e file, running the tests whose names match SELECTOR. */
function runErt(selector: string, env: NodeJS.ProcessEnv): Promise<EmacsRun> {
  return runEmacs(['-l', join(EMACS_DIR, 'test', 'agentd-e2e-test.el'), '--eval', `(ert-run-tests-batch-and-exit "${selector}")`], env);
}

function emacsEnv(cd: ClientDaemon, summary: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...cd.env,
    AGENTD_E2E_NODE: cd.node,
    AGENTD_E2E_CLI: cd.cli,
    AGENTD_E2E_WORKSPACE: cd.workspace,
    AGENTD_E2E_SUMMARY: summary,
    ...extra,
  };
}

type Summary = Record<string, Record<string, unknown>>;

function readSummary(path: string): Summary {
  return JSON.parse(readFileSync(path, 'utf8')) as Summary;
}

/** The chat-completions messages of a recorded model request. */
function messagesOf(body: unknown): Array<{ role: string; content: unknown; tool_calls?: unknown }> {
  return (body as { messages: Array<{ role: string; content: unknown }> }).messages;
}

/** A message's text, whether its content is a string or parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return (content as Array<{ text?: string }>).map((p) => p.text ?? '').join('');
  return '';
}

/** A stream that sends every frame before the one carrying `holdAt`, then hangs (the turn stays in flight). */
function heldStream(pieces: string[], holdAt: string): { body: string; stallAfterBytes: number } {
  const body = chatCompletionSse(pieces);
  const frameStart = body.lastIndexOf('data: ', body.indexOf(`"content":${JSON.stringify(holdAt)}`));
  return { body, stallAfterBytes: Buffer.byteLength(body.slice(0, frameStart)) };
}

describe.skipIf(!hasEmacs)('the Emacs package', () => {
  it('byte-compiles without a warning and passes checkdoc', async () => {
    // Compiled in a copy, so no .elc is left beside the sources.
    const dir = mkdtempSync(join(tmpdir(), 'agentd-elc-'));
    try {
      const files = readdirSync(EMACS_DIR).filter((f) => f.endsWith('.el')).sort();
      expect(files).toEqual(['agentd-chat.el', 'agentd-diff.el', 'agentd-rpc.el', 'agentd-session.el', 'agentd.el']);
      for (const file of files) copyFileSync(join(EMACS_DIR, file), join(dir, file));
      const compiled = await runEmacs(
        ['-L', dir, '--eval', '(setq byte-compile-error-on-warn t)', '-f', 'batch-byte-compile', ...files.map((f) => join(dir, f))],
        process.env,
      );
      expect(compiled.output).toBe('');
      expect(compiled.code).toBe(0);
      const checks = files.map((f) => `(checkdoc-file "${join(dir, f)}")`).join(' ');
      const checked = await runEmacs(['--eval', `(progn (require 'checkdoc) ${checks})`], process.env);
      expect(checked.output).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('renders updates, describes turn ends and builds region blocks (ERT unit tests)', async () => {
    const run = await runEmacs(['-l', join(EMACS_DIR, 'test', 'agentd-chat-test.el'), '-f', 'ert-run-tests-batch-and-exit'], process.env);
    expect(run.output).toMatch(/Ran \d+ tests, (\d+) results as expected, 0 unexpected/);
    expect(run.code).toBe(0);
  }, 60_000);

  describe('against a daemon', () => {
    let cd: ClientDaemon;
    let summaryDir: string;

    beforeAll(async () => {
      cd = await startClientDaemon();
      summaryDir = mkdtempSync(join(tmpdir(), 'agentd-emacs-summary-'));
    });

    afterAll(async () => {
      await cd?.close();
      if (summaryDir) rmSync(summaryDir, { recursive: true, force: true });
    });

    it('prompts with a permission question, sends the region, steers, follows up, aborts, shows a failure, loads a session and exits', async () => {
      const summaryPath = join(summaryDir, 'main.json');
      // Model responses in the order the ERT tests (run in name order) ask for them.
      cd.replay.enqueue({
        body: chatToolCallSse([{ id: 'call_write_1', name: 'write', arguments: { path: 'hello.txt', content: 'Hello from Emacs ✓\n' } }]),
      });
      cd.replay.enqueue({ body: chatCompletionSse(['Created ', 'hello.txt ', 'for you.']) });
      cd.replay.enqueue({ body: chatCompletionSse(['Those are ', 'lines two and three.']) });
      cd.replay.enqueue(heldStream(['Working on ', 'it', ' and this never arrives'], ' and this never arrives'));
      cd.replay.enqueue({ body: chatCompletionSse(['Steered ', 'answer.']) });
      cd.replay.enqueue({ body: chatCompletionSse(['Goodbye.']) });
      cd.replay.enqueue(heldStream(['Still working', ' and this never arrives'], ' and this never arrives'));
      cd.replay.enqueue({
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ error: { message: 'The model e2e-model is unavailable', type: 'invalid_request_error' } }),
      });

      const run = await runErt('^agentd-e2e-', emacsEnv(cd, summaryPath));
      expect(run.output).toContain('Ran 7 tests, 7 results as expected, 0 unexpected');
      expect(run.code).toBe(0);
      const summary = readSummary(summaryPath);
      const requests = cd.replay.requests;
      expect(requests).toHaveLength(8);

      // 1. A prompt: the model calls write, the daemon asks, the let-bound function allows once.
      const prompt = summary.prompt!;
      expect(prompt.stop).toBe('done');
      // The daemon titles the session from the first prompt (session_info_update); the header line shows it.
      expect(prompt.title).toBe('Create hello.txt — with a ✓, please');
      expect(prompt.permissionTitle).toMatch(/^Write hello\.txt/);
      expect(prompt.permissionOptions).toEqual(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
      expect(prompt.toolUpdates).toEqual(['tool_call', 'tool_call_update', 'tool_call_update']);
      // However the vendor's reads split its three pieces (pieces of one read go out joined); the chat below has the whole text.
      expect(prompt.agentChunks).toBeGreaterThanOrEqual(1);
      expect(prompt.file).toBe('Hello from Emacs ✓\n');
      expect(prompt.chat).toBe(
        '> Create hello.txt — with a ✓, please\n\n' +
          '[tool] Write hello.txt (completed)\n\n' +
          // The question's proposed change, shown while it is asked.
          '- proposed new file hello.txt:\n  @@ -0,0 +1 @@\n  +Hello from Emacs ✓\n\n' +
          'permission for Write hello.txt: Allow once\n\n' +
          'Created hello.txt for you.\n\n' +
          '--- done\n',
      );
      expect(textOf(messagesOf(requests[0]!.body).at(-1)!.content)).toBe('Create hello.txt — with a ✓, please');
      expect(toolResultText(requests[1]!.body, 'call_write_1')).toMatch(/^Created hello\.txt \(1 lines\)\./);

      // 2. The region goes as a resource block with the file's URI and its lines.
      const region = summary.region!;
      const uri = `${region.uri as string}#L2:3`;
      expect(uri).toBe(`file://${cd.workspace}/notes.txt#L2:3`);
      expect(textOf(messagesOf(requests[2]!.body).at(-1)!.content)).toBe(
        `Explain these lines\n\n<resource uri="${uri}">\nline two\nline three\n\n</resource>`,
      );
      expect(region.chat).toBe('> Explain these lines\n> [context: notes.txt#L2:3]\n\nThose are lines two and three.\n\n--- done\n');

      // 3. Held in flight: a follow-up queues, an interrupting steer cuts the stream and
      //    goes to the model with the partial answer; the follow-up comes after.
      const steered = messagesOf(requests[4]!.body);
      expect(steered.slice(-3).map((m) => [m.role, textOf(m.content)])).toEqual([
        ['user', 'Start working'],
        ['assistant', 'Working on it'],
        ['user', 'Stop and say steered.'],
      ]);
      expect(messagesOf(requests[5]!.body).slice(-2).map((m) => [m.role, textOf(m.content)])).toEqual([
        ['assistant', 'Steered answer.'],
        ['user', 'Then say goodbye.'],
      ]);
      expect(summary.steer!.chat).toBe(
        '> Start working\n\nWorking on it\n\n' +
          '> (follow-up) Then say goodbye.\n\n' +
          '> (steer now) Stop and say steered.\n\n' +
          'Steered answer.\n\nGoodbye.\n\n--- done\n',
      );

      // 4. Abort while the stream is held: the turn ends cancelled.
      expect(summary.abort!.chat).toBe('> Start a long job\n\nStill working\n\n--- cancelled\n');

      // 5. A provider error fails the turn, and the chat says why.
      expect(summary.failure!.stop).toMatch(/^failed: local 400: The model e2e-model is unavailable/);
      // The loop also reports the error as a notice (for ACP clients, which see no error otherwise).
      expect(summary.failure!.chat).toBe(
        '> This one fails\n\n' +
          'error: local 400: The model e2e-model is unavailable\n\n' +
          `--- ${summary.failure!.stop as string}\n`,
      );

      // 6. agentd-sessions offers every stored session and loads the chosen one: its history replays.
      expect(summary.sessions!.offered).toBe(5);
      expect(summary.sessions!.chosen).toMatch(new RegExp(`^Create hello\\.txt — with a ✓, please  \\[.*\\]  \\S+  ${prompt.sessionId as string}$`));
      expect(summary.sessions!.chat).toBe(
        '> Create hello.txt — with a ✓, please\n\n' + '[tool] Write hello.txt (completed)\n\n' + 'Created hello.txt for you.',
      );

      // 7. agentd-shutdown closes stdin; the bridge exits 0.
      expect(summary.exit).toEqual({ status: 'exit', code: 0 });
    }, 120_000);
  });

  describe('with maxTurns 1', () => {
    let cd: ClientDaemon;
    let dir: string;

    beforeAll(async () => {
      cd = await startClientDaemon({ maxTurns: 1 });
      dir = mkdtempSync(join(tmpdir(), 'agentd-emacs-limit-'));
    });

    afterAll(async () => {
      await cd?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('shows a turn stopped by the limit as out of turns', async () => {
      cd.replay.enqueue({ body: chatToolCallSse([{ id: 'call_ls_1', name: 'ls', arguments: {} }]) });
      const run = await runErt('^agentd-limit-', emacsEnv(cd, join(dir, 'limit.json')));
      expect(run.output).toContain('Ran 1 tests, 1 results as expected, 0 unexpected');
      // One model request: the ls call ran (read access asks nobody), and the next request was not made.
      expect(cd.replay.requests).toHaveLength(1);
      expect(readSummary(join(dir, 'limit.json')).limit).toEqual({
        stop: 'out of turns or budget',
        chat:
          '> List the files, then tell me about them\n\n[tool] List . (completed)\n\n' +
          // The daemon's notice says which limit; the end line says how the turn ended.
          'warning: The turn stopped after 1 model requests, the limit (maxTurns = 1). ' +
          'Send another prompt to go on, or raise maxTurns in config.json.\n\n' +
          '--- out of turns or budget\n',
      });
    }, 120_000);
  });

  describe('a second Emacs joining a running session', () => {
    let cd: ClientDaemon;
    let dir: string;

    beforeAll(async () => {
      cd = await startClientDaemon();
      dir = mkdtempSync(join(tmpdir(), 'agentd-emacs-join-'));
    });

    afterAll(async () => {
      await cd?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('replays what was said, follows the rest live and shows the whole reply', async () => {
      const sessionFile = join(dir, 'session-id');
      cd.replay.enqueue(heldStream(['First part of the reply. ', 'More of the first part.', ' Never sent.'], ' Never sent.'));
      cd.replay.enqueue({ body: chatCompletionSse([' And the rest, ', 'after the steer.']) });

      const host = runErt('^agentd-join-host$', emacsEnv(cd, join(dir, 'host.json'), { AGENTD_E2E_SESSION_FILE: sessionFile }));
      await until(() => existsSync(sessionFile) && readFileSync(sessionFile, 'utf8') !== '', 30_000, 'the host to write its session id');
      const sessionId = readFileSync(sessionFile, 'utf8');
      const guest = await runErt('^agentd-join-guest$', emacsEnv(cd, join(dir, 'guest.json'), { AGENTD_E2E_JOIN_SESSION: sessionId }));
      const hostRun = await host;
      expect(guest.output).toContain('Ran 1 tests, 1 results as expected, 0 unexpected');
      expect(hostRun.output).toContain('Ran 1 tests, 1 results as expected, 0 unexpected');

      const guestSummary = readSummary(join(dir, 'guest.json'));
      const hostSummary = readSummary(join(dir, 'host.json'));
      // The host saw its own turn through: the guest's steer arrives as a user message.
      expect(hostSummary.host).toEqual({
        stop: 'done',
        chat:
          '> Tell me in two parts\n\n' +
          'First part of the reply. More of the first part.\n\n' +
          '> Go on.\n\n' +
          ' And the rest, after the steer.\n\n--- done\n',
      });
      // The model got the partial answer and the guest's steer.
      expect(messagesOf(cd.replay.requests[1]!.body).slice(-2).map((m) => [m.role, textOf(m.content)])).toEqual([
        ['assistant', 'First part of the reply. More of the first part.'],
        ['user', 'Go on.'],
      ]);
      // The guest joined mid-stream: the load says a turn runs, and the reply so far is replayed.
      expect(guestSummary.loaded!.running).toBe(true);
      expect(guestSummary.loaded!.chat).toBe('> Tell me in two parts\n\nFirst part of the reply. More of the first part.');
      expect(guestSummary.guest).toEqual({
        stop: 'done',
        chat:
          '> Tell me in two parts\n\n' +
          'First part of the reply. More of the first part.\n\n' +
          '> (steer now) Go on.\n\n' +
          ' And the rest, after the steer.\n\n--- done\n',
      });
    }, 120_000);
  });
});
