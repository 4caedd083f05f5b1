import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runProcess, type ProcessResult } from '../support/run-process.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, toolResultText, userTexts } from '../support/chat-tool-call-sse.js';
import { startClientDaemon, type ClientDaemon } from '../support/client-daemon.js';
import { connectPeer, until } from '../support/daemon-process.js';
import type { RpcPeer } from '../support/rpc-peer.js';
import { requireProgram } from '../support/required-program.js';
import { bytesThrough } from '../support/sse-frame-ends.js';

/*
 * The Neovim plugin (clients/neovim) end to end: a headless Neovim runs a Lua scenario
 * (clients/neovim/tests/*.lua) through the plugin's public functions and commands; the
 * plugin spawns `node CLI serve --stdio`, which, in the harness daemon's AGENTD_HOME,
 * passes the connection to the socket daemon, whose model is the loopback replay server.
 * The scenario writes a JSON summary (chat buffer lines, turn endings, pickers shown);
 * the test asserts on it and on what the replay server received.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCENARIOS = join(ROOT, 'clients/neovim/tests');
/** A headless Neovim, a bridge process and a daemon per test: more than vitest's default 20 s on a busy machine. */
const TEST_TIMEOUT_MS = 60_000;
const hasNvim = requireProgram({ command: 'nvim', debianPackage: 'neovim', neededBy: 'the Neovim client tests' });

type NvimRun = ProcessResult;

/** Runs `nvim --headless -u NONE` on a scenario script; resolves when Neovim exits. */
function runNvim(script: string, env: NodeJS.ProcessEnv, timeoutMs = 45_000): Promise<NvimRun> {
  return runProcess('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${join(SCENARIOS, script)}`], { cwd: ROOT, env, timeoutMs });
}

/** The environment a scenario runs with: the harness daemon's, plus where things are. */
function scenarioEnv(cd: ClientDaemon, out: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...cd.env,
    AGENTD_NVIM_NODE: cd.node,
    AGENTD_NVIM_CLI: cd.cli,
    AGENTD_NVIM_WORKSPACE: cd.workspace,
    AGENTD_NVIM_OUT: out,
    ...extra,
  };
}


/** Waits for `predicate`, failing at once with Neovim's output if Neovim exits first. */
async function waitUnlessExited(nvim: Promise<NvimRun>, predicate: () => boolean, what: string): Promise<void> {
  let exited: NvimRun | undefined;
  void nvim.then((run) => (exited = run));
  await until(() => predicate() || exited !== undefined, 20_000, what);
  if (!predicate()) throw new Error(`Neovim exited before ${what}: ${exited?.stderr}${exited?.stdout}`);
}

describe.skipIf(!hasNvim)('Neovim client (clients/neovim) against a real daemon', () => {
  let cd: ClientDaemon;
  let scratch: string;

  beforeEach(async () => {
    // Trusted so that a test's project config may price the replay server's model.
    cd = await startClientDaemon({}, { trustWorkspace: true });
    scratch = mkdtempSync(join(tmpdir(), 'agentd-nvim-'));
  });

  afterEach(async () => {
    await cd.close();
    rmSync(scratch, { recursive: true, force: true });
  }, TEST_TIMEOUT_MS);

  it('prompts, answers a permission question, steers and aborts, interrupts, sends a selection, shows failures and follow-ups', async () => {
    // 1. The model writes hello.txt (asks permission), then says so in three chunks.
    cd.replay.enqueue({ body: chatToolCallSse([{ id: 'call_write', name: 'write', arguments: { path: 'hello.txt', content: 'hi from nvim\n' } }]) });
    cd.replay.enqueue({ body: chatCompletionSse(['Wrote ', 'hello.txt', ' for you.']) });
    // 2. A reply that stalls after its first text chunk: the turn stays in flight.
    const stalled = chatCompletionSse(['Working on it', ' and more']);
    cd.replay.enqueue({ body: stalled, stallAfterBytes: bytesThrough(stalled, 'Working on it') });
    // 2b. Another stalled reply, ended by an interrupting steer, then the answer to the steer.
    const drafting = chatCompletionSse(['Drafting', ' step one']);
    cd.replay.enqueue({ body: drafting, stallAfterBytes: bytesThrough(drafting, 'Drafting') });
    cd.replay.enqueue({ body: chatCompletionSse(['Summary: ', 'nothing yet.']) });
    // 3. The answer about the selection.
    cd.replay.enqueue({ body: chatCompletionSse(['It returns ', '42.']) });
    // 4. The provider fails (maxRetries 0: once).
    cd.replay.enqueue({
      status: 500,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { message: 'upstream exploded', type: 'server_error' } }),
    });
    // 5. A slow reply (its second half 1.5 s later), then the answer to the follow-up.
    const slow = chatCompletionSse(['One', '.']);
    cd.replay.enqueue({ body: slow, chunking: { splitAt: [bytesThrough(slow, '"One"')] }, delayMs: 1_500 });
    cd.replay.enqueue({ body: chatCompletionSse(['Bye.']) });

    const out = join(scratch, 'summary.json');
    const run = await runNvim('e2e.lua', scenarioEnv(cd, out));
    expect(run.stderr + run.stdout, 'the scenario failed').not.toMatch(/scenario failed/);
    expect(run.code).toBe(0);
    const summary = JSON.parse(readFileSync(out, 'utf8'));
    const ws = cd.workspace;
    const bodies = cd.replay.requests.map((r) => r.body);
    expect(bodies).toHaveLength(9);

    // The prompt returned while its turn was still running.
    expect(summary.returnedBeforeTheTurnEnded).toBe(true);
    // Every turn ended as its chat line says.
    expect(summary.endings.map((e: { outcome: string }) => e.outcome)).toEqual(['done', 'cancelled', 'done', 'done', 'failed', 'done']);
    expect(summary.endings[4]).toEqual({ outcome: 'failed', code: -32014, error: 'local 500: upstream exploded', text: '[failed] local 500: upstream exploded' });

    // 1. The permission question went through vim.ui.select; "Allow once" let the write run.
    expect(summary.selects[0].prompt).toBe('agentd: allow Write hello.txt?');
    expect(summary.selects[0].items[0]).toBe('Allow once');
    expect(summary.selects[0].items).toContain('Reject');
    expect(readFileSync(join(ws, 'hello.txt'), 'utf8')).toBe('hi from nvim\n');
    expect(toolResultText(bodies[1], 'call_write')).toMatch(/^Created hello.txt \(1 lines\)/);

    // 2. The steer was queued (the queue event said so) and dropped by the abort: no model request saw it.
    expect(summary.steer).toEqual({ result: { queued: 1 } });
    expect(summary.queueAfterSteer).toEqual({ steering: 1, follow_up: 0 });
    expect(summary.abort).toEqual({ result: { stopped: true } });
    expect(userTexts(bodies[2]).at(-1)).toBe('Start a long job');
    expect(bodies.flatMap(userTexts).some((text) => text.includes('Also mention the tests'))).toBe(false);

    // 2b. The interrupting steer ended the stalled reply (its text kept) and was answered next.
    expect((bodies[4] as { messages: unknown[] }).messages.slice(-3)).toEqual([
      { role: 'user', content: 'Draft a plan' },
      { role: 'assistant', content: 'Drafting' },
      { role: 'user', content: 'Stop and summarise' },
    ]);

    // 3. The selection reached the model as a resource block naming the file and its lines.
    const asked = userTexts(bodies[5]).at(-1)!;
    expect(asked.startsWith('What does this return?')).toBe(true);
    expect(asked).toContain(`<resource uri="file://${ws}/sample.lua#L2-L3">\n  return 42\nend\n</resource>`);
    expect(summary.charwiseBlock).toEqual({ type: 'resource', resource: { uri: `file://${ws}/sample.lua#L2`, text: '42' } });

    // 4 and 5. The failed prompt, then the follow-up continuing the slow turn.
    expect(userTexts(bodies[6]).at(-1)).toBe('This one fails');
    expect(userTexts(bodies[7]).at(-1)).toBe('Count to one');
    expect(userTexts(bodies[8]).at(-1)).toBe('Now say bye');
    expect(summary.followUp).toEqual({ result: { queued: 1 } });

    // 6 and 7. Mode, model and session pickers.
    expect(summary.modes.currentModeId).toBe('plan');
    expect(summary.selects[1].kind).toBe('agentd.mode');
    expect(summary.selects[2]).toEqual({ prompt: 'agentd: Model', kind: 'agentd.model', items: ['* local/e2e-model'] });
    expect(summary.model).toBe('local/e2e-model');
    expect(summary.selects[3].kind).toBe('agentd.session');
    // Labelled with the session's title (from its first prompt), or its id while it has none.
    const label = summary.selects[3].items[0] as string;
    expect([`Create hello.txt  (${ws}, `, `${summary.sessionId}  (${ws}, `]).toContain(label.slice(0, label.indexOf(', ') + 2));
    expect(summary.current).toBe(summary.sessionId);

    // 8. :checkhealth agentd.
    expect(summary.health).toContain('## agentd');
    expect(summary.health).toContain('  - OK: setup() called');
    expect(summary.health.some((line: string) => /^ {2}- OK: connected to agentd \S+ \(features: .*steering/.test(line))).toBe(true);

    // The chat buffer, whole.
    expect(summary.lines).toEqual([
      '## You',
      'Create hello.txt',
      '',
      '- tool: Write hello.txt [completed]',
      '',
      // The question's proposed change, shown in the chat while the picker asks.
      '- proposed new file hello.txt:',
      '  @@ -0,0 +1 @@',
      '  +hi from nvim',
      '',
      '- permission: Write hello.txt -> Allow once',
      '',
      '## Agent',
      'Wrote hello.txt for you.',
      '',
      '[done]',
      '',
      '## You',
      'Start a long job',
      '',
      '## Agent',
      'Working on it',
      '',
      '## You (steer)',
      'Also mention the tests',
      '',
      '[cancelled]',
      '',
      '## You',
      'Draft a plan',
      '',
      '## Agent',
      'Drafting',
      '',
      '## You (steer)',
      'Stop and summarise',
      '',
      '## Agent',
      'Summary: nothing yet.',
      '',
      '[done]',
      '',
      '## You',
      'What does this return?',
      `[context] file://${ws}/sample.lua#L2-L3`,
      '',
      '## Agent',
      'It returns 42.',
      '',
      '[done]',
      '',
      '## You',
      'This one fails',
      '',
      expect.stringMatching(/^\[error\] .*upstream exploded/),
      '',
      '[failed] local 500: upstream exploded',
      '',
      '## You',
      'Count to one',
      '',
      '## Agent',
      'One',
      '',
      '## You (follow-up)',
      'Now say bye',
      '',
      '## Agent',
      '.',
      '',
      '## Agent',
      'Bye.',
      '',
      '[done]',
      '',
      '[mode] plan',
      '',
      '[model] local/e2e-model',
    ]);
  }, TEST_TIMEOUT_MS);

  it('joins a session another client is running: its history, the reply streamed so far, then the live rest', async () => {
    const other = await connectPeer(cd.socketPath);
    try {
      await other.call('initialize', { protocolVersion: 1 });
      const { sessionId } = await other.call('session/new', { cwd: cd.workspace, mcpServers: [] });
      cd.replay.enqueue({ body: chatCompletionSse(['Earlier answer.']) });
      await other.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Earlier question' }] });

      // The running turn's reply: "Alpha beta " now, "gamma delta." 4 s later (time enough to join).
      const reply = chatCompletionSse(['Alpha ', 'beta ', 'gamma ', 'delta.']);
      cd.replay.enqueue({ body: reply, chunking: { splitAt: [bytesThrough(reply, '"beta "')] }, delayMs: 4_000 });

      const out = join(scratch, 'summary.json');
      const ready = join(scratch, 'ready');
      const joinFile = join(scratch, 'join');
      const nvim = runNvim('join.lua', scenarioEnv(cd, out, { AGENTD_NVIM_READY: ready, AGENTD_NVIM_JOIN: joinFile }));
      await waitUnlessExited(nvim, () => existsSync(ready), 'Neovim to connect');

      const prompt = other.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Tell a story' }] }, 30_000);
      await other.waitFor((m) => m.method === 'session/update' && m.params?.update?.content?.text?.endsWith('beta ') === true, 10_000, 'the first half of the reply');
      // Named only now, while the second half is still on its way.
      writeFileSync(`${joinFile}.tmp`, sessionId);
      renameSync(`${joinFile}.tmp`, joinFile);

      const run = await nvim;
      expect(run.stderr + run.stdout, 'the scenario failed').not.toMatch(/scenario failed/);
      expect(run.code).toBe(0);
      expect((await prompt).result).toEqual({ stopReason: 'end_turn' });
      const summary = JSON.parse(readFileSync(out, 'utf8'));
      const history = ['## You', 'Earlier question', '', '## Agent', 'Earlier answer.', '', '## You', 'Tell a story', '', '## Agent'];
      // Right after session/load: the history and the part of the reply already streamed.
      expect(summary.atJoin).toEqual({ running: true, lines: [...history, 'Alpha beta '] });
      // At the end: the whole reply in one piece, and how the turn ended (from the turn_end event).
      expect(summary.lines).toEqual([...history, 'Alpha beta gamma delta.', '', '[done]']);
      expect(summary.endings).toEqual([{ outcome: 'done', stop_reason: 'end_turn', text: '[done]' }]);
    } finally {
      other.close();
    }
  }, TEST_TIMEOUT_MS);

  it("turns a permission question's diffs into chat lines, relative to the session's directory, cut at 40", async () => {
    const out = join(scratch, 'summary.json');
    const run = await runNvim('proposed_change.lua', scenarioEnv(cd, out));
    expect(run.stderr + run.stdout, 'the scenario failed').not.toMatch(/scenario failed/);
    const summary = JSON.parse(readFileSync(out, 'utf8'));
    expect(summary.change).toEqual(['- proposed change to src/a.lua:', '  @@ -1,2 +1,2 @@', '   one', '  -two', '  +TWO']);
    expect(summary.outside[0]).toBe('- proposed change to /elsewhere/b.txt:');
    expect(summary.long[0]).toBe('- proposed new file long.txt:');
    expect(summary.long.slice(1, 3)).toEqual(['  @@ -0,0 +1,100 @@', '  +line 1']);
    expect(summary.long.at(-2)).toBe('  +line 39');
    expect(summary.long.at(-1)).toBe('  ... 61 more diff lines');
    // Empty tables encode as JSON objects from Lua.
    expect([summary.none, summary.no_content].map((v: unknown) => (Array.isArray(v) ? v.length : Object.keys(v as object).length))).toEqual([0, 0]);
  });

  it('shows turns that stop at maxTurns and at the budget', async () => {
    // The workspace's project config: one model request per turn, and a price that makes
    // the second turn spend past a budget of half a cent.
    mkdirSync(join(cd.workspace, '.agentd'));
    writeFileSync(
      join(cd.workspace, '.agentd', 'config.json'),
      JSON.stringify({
        maxTurns: 1,
        budgetUsd: 0.005,
        providers: { local: { type: 'openai-chat', baseUrl: `${cd.replay.url}/v1`, maxRetries: 0, models: { 'e2e-model': { inputPrice: 100, outputPrice: 100 } } } },
      }),
    );
    // 30 tokens: $0.003; then 110 tokens: $0.011 more.
    cd.replay.enqueue({ body: chatToolCallSse([{ id: 'call_ls', name: 'ls', arguments: {} }]) });
    cd.replay.enqueue({ body: chatCompletionSse(['Pricey.'], { promptTokens: 100, completionTokens: 10 }) });

    const out = join(scratch, 'summary.json');
    const run = await runNvim('limits.lua', scenarioEnv(cd, out));
    expect(run.stderr + run.stdout, 'the scenario failed').not.toMatch(/scenario failed/);
    expect(run.code).toBe(0);
    const summary = JSON.parse(readFileSync(out, 'utf8'));
    // The third prompt made no model request.
    expect(cd.replay.requests).toHaveLength(2);
    const budget = 'This session has cost $0.0140, which reaches its budget of $0.0050 (budgetUsd), so no further model requests were made.';
    expect(summary.endings).toEqual([
      { outcome: 'out_of_turns', stop_reason: 'max_turn_requests', text: '[stopped] out of turns: maxTurns reached' },
      { outcome: 'done', stop_reason: 'end_turn', text: '[done]' },
      { outcome: 'budget', stop_reason: 'end_turn', message: expect.stringContaining(budget), text: '[stopped] budget spent: budgetUsd reached' },
    ]);
    // The daemon's notices explain each stop just above it.
    expect(summary.lines).toEqual([
      '## You',
      'List the files',
      '',
      '- tool: List . [completed]',
      '',
      expect.stringMatching(/^\[warning\] The turn stopped after 1 model requests, the limit \(maxTurns = 1\)/),
      '',
      '[stopped] out of turns: maxTurns reached',
      '',
      '## You',
      'Say something pricey',
      '',
      '## Agent',
      'Pricey.',
      '',
      '[done]',
      '',
      '## You',
      'One more',
      '',
      expect.stringContaining(`[warning] ${budget}`),
      '',
      '[stopped] budget spent: budgetUsd reached',
    ]);
  }, TEST_TIMEOUT_MS);
});
