import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess, type ProcessResult } from '../support/run-process.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, toolResultText } from '../support/chat-tool-call-sse.js';
import { startClientDaemon, type ClientDaemon } from '../support/client-daemon.js';
import { requireProgram } from '../support/required-program.js';

/** clients/python: the package (src/agentd) and its tests, scenarios included. */
const PYTHON_CLIENT = fileURLToPath(new URL('../../clients/python', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PYTHON = 'python3';
const hasPython = requireProgram({ command: PYTHON, debianPackage: 'python3', neededBy: 'the Python client tests' });

type PythonRun = ProcessResult;

/** Runs `python3 ARGS` in `cwd` with the client on PYTHONPATH; never writes bytecode into the tree. */
function runPython(args: string[], env: NodeJS.ProcessEnv, cwd = PYTHON_CLIENT, timeoutMs = 60_000): Promise<PythonRun> {
  return runProcess(PYTHON, args, { cwd, timeoutMs, env: { ...env, PYTHONPATH: join(PYTHON_CLIENT, 'src'), PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1' } });
}

/** Runs a scenario script and parses the JSON summary it prints last; fails with its stderr otherwise. */
async function runScenario(script: string, env: NodeJS.ProcessEnv): Promise<any> {
  const run = await runPython([join('tests', script)], env);
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.code !== 0 || !last.startsWith('{')) {
    throw new Error(`${script} exited with ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`);
  }
  return JSON.parse(last);
}

/** A stream that sends its role chunk and the first pieces, then hangs: the turn stays in flight. */
function heldStream(pieces: string[], stallAfterPiece: string): { body: string; stallAfterBytes: number } {
  const body = chatCompletionSse(pieces);
  const at = body.indexOf(JSON.stringify(stallAfterPiece));
  return { body, stallAfterBytes: body.indexOf('\n\n', at) + 2 };
}

/** The last user message in a recorded chat-completions request body, as JSON text. */
function lastUserText(body: unknown): string {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  const user = messages.filter((m) => m.role === 'user').at(-1);
  return JSON.stringify(user?.content ?? null);
}

/** Each test starts Python (and the stdio test two daemons); under a loaded `npm test` that takes longer than a unit test. */
const PYTHON_TEST_TIMEOUT_MS = 60_000;

describe.skipIf(!hasPython)('Python client (clients/python) against a real daemon', () => {
  let d: ClientDaemon;

  beforeAll(async () => {
    d = await startClientDaemon();
  });

  afterAll(async () => {
    await d?.close();
  });

  it('passes its own unit tests (framing, out-of-order dispatch, handlers)', async () => {
    // The documented command, from the repository root.
    const run = await runPython(['-m', 'unittest', 'discover', 'clients/python/tests'], process.env, REPO_ROOT);
    // Discovery that finds nothing still says OK on Python 3.11: check that the tests ran.
    const ran = Number(/^Ran (\d+) tests? in /m.exec(run.stderr)?.[1] ?? 0);
    expect(ran).toBeGreaterThanOrEqual(40);
    expect(run.stderr.trim().split('\n').at(-1)).toBe('OK');
    expect(run.code).toBe(0);
  }, PYTHON_TEST_TIMEOUT_MS);

  it('Client: streams a turn, answers a permission, runs Python tools, steers and aborts a held turn, loads the session elsewhere', async () => {
    const before = d.replay.requests.length;
    // 1. write hello.txt through the built-in tool, then a closing text.
    d.replay.enqueue({ body: chatToolCallSse([{ id: 'call_write', name: 'write', arguments: { path: 'hello.txt', content: 'hello from python\n' } }]) });
    d.replay.enqueue({ body: chatCompletionSse(['Wrote ', 'hello.txt', '.']) });
    // 2. the Python tools: one answers, one raises.
    d.replay.enqueue({
      body: chatToolCallSse([
        { id: 'call_add', name: 'add_numbers', arguments: { a: 2, b: 3 } },
        { id: 'call_boom', name: 'explode', arguments: { reason: 'on purpose' } },
      ]),
    });
    d.replay.enqueue({ body: chatCompletionSse(['2 + 3 = 5; ', 'explode failed.']) });
    // 3. held, steered, aborted: nothing after it reaches the model.
    d.replay.enqueue(heldStream(['Counting: ', 'one ', 'two ', 'three'], 'one '));
    // 4. held, follow-up queued, steered with interrupt: cats, then the follow-up's dogs.
    d.replay.enqueue(heldStream(['Counting: ', 'one ', 'two ', 'three'], 'one '));
    d.replay.enqueue({ body: chatCompletionSse(['Cats ', 'purr.']) });
    d.replay.enqueue({ body: chatCompletionSse(['Dogs ', 'bark.']) });

    const summary = await runScenario('e2e_sync_scenario.py', { ...process.env, AGENTD_SOCKET: d.socketPath, AGENTD_WORKSPACE: d.workspace });

    expect(summary.agentInfo).toMatchObject({ name: 'agentd' });
    expect(summary.features).toEqual(expect.arrayContaining(['steering', 'tools', 'events', 'cancellation']));
    expect(summary.sessionId).toMatch(/\S/);

    // The vendor's pieces arrive as chunks however its reads split them (pieces of one read go out joined).
    expect(summary.write.chunks.join('')).toBe('Wrote hello.txt.');
    expect(summary.write).toEqual({
      stopReason: 'end_turn',
      text: 'Wrote hello.txt.',
      chunks: expect.any(Array),
      streamedKinds: expect.arrayContaining(['agent_message_chunk', 'tool_call', 'tool_call_update']),
      toolCalls: [{ toolCallId: 'call_write', kind: 'edit', title: 'Write hello.txt' }],
      toolStatuses: expect.arrayContaining(['completed']),
      file: 'hello from python\n',
      permissions: [
        {
          sessionId: summary.sessionId,
          toolCall: expect.objectContaining({ toolCallId: 'call_write', title: 'Write hello.txt', kind: 'edit', rawInput: { path: 'hello.txt', content: 'hello from python\n' } }),
          options: expect.arrayContaining([expect.objectContaining({ optionId: 'allow_once', kind: 'allow_once' }), expect.objectContaining({ optionId: 'reject_once', kind: 'reject_once' })]),
          // PermissionRequest.diffs: the proposed change, to show before answering.
          diffs: [{ type: 'diff', path: join(realpathSync(d.workspace), 'hello.txt'), oldText: null, newText: 'hello from python\n' }],
        },
      ],
    });
    expect(readFileSync(join(d.workspace, 'hello.txt'), 'utf8')).toBe('hello from python\n');

    expect(summary.registered).toEqual([['add_numbers'], ['explode']]);
    expect(summary.listedTools).toEqual({ add_numbers: 'client', explode: 'client', write: 'builtin' });
    expect(summary.tools).toEqual({ stopReason: 'end_turn', text: '2 + 3 = 5; explode failed.', calls: [{ a: 2, b: 3 }] });

    // Both pieces before the hold may come in one read, and then in one chunk.
    expect(['Counting: ', 'Counting: one ']).toContain(summary.heldFirstChunk);
    expect(summary.steerQueued).toBe(1);
    expect(summary.abort).toMatchObject({ stopReason: 'cancelled', text: 'Counting: one ' });
    expect(summary.abort.seconds).toBeLessThan(5);
    expect(summary.followUpQueued).toBe(1);
    expect(summary.interruptQueued).toBe(1);
    // The interrupted response's partial text is kept; each later response follows it, a blank line apart.
    expect(summary.steer).toEqual({ stopReason: 'end_turn', text: 'Counting: one \n\nCats purr.\n\nDogs bark.' });

    // A second client's session/load replays the history (the aborted turn's steer was dropped, never delivered).
    expect(summary.loaded).toEqual({
      user: ['Write hello.txt', 'Add 2 and 3, then explode', 'Count slowly', 'Count again', 'Talk about cats instead', 'Then dogs'],
      agent: 'Wrote hello.txt.2 + 3 = 5; explode failed.Counting: one Counting: one Cats purr.Dogs bark.',
      toolCalls: ['call_write', 'call_add', 'call_boom'],
    });

    expect(summary.unknownSession).toMatchObject({ code: -32002, codeName: 'ResourceNotFound' });
    expect(summary.unknownSession.message).toContain('no-such-session');
    expect(summary.afterClose).toMatch(/^connection to agentd closed before the answer to session\/new arrived \(this client closed the connection\)/);

    // What the model was sent: 8 requests, the tool results, the steer and the follow-up (the aborted steer never).
    const requests = d.replay.requests.slice(before);
    expect(requests.map((r) => r.path)).toEqual(Array(8).fill('/v1/chat/completions'));
    expect(toolResultText(requests[1]!.body, 'call_write')).toMatch(/^Created hello\.txt \(1 lines\)\./);
    expect(toolResultText(requests[3]!.body, 'call_add')).toBe('5');
    expect(toolResultText(requests[3]!.body, 'call_boom')).toMatch(/explode failed: RuntimeError: on purpose/);
    expect(lastUserText(requests[4]!.body)).toContain('Count slowly');
    expect(lastUserText(requests[5]!.body)).toContain('Count again');
    expect(lastUserText(requests[6]!.body)).toContain('Talk about cats instead');
    expect(lastUserText(requests[7]!.body)).toContain('Then dogs');
    expect(JSON.stringify(requests.map((r) => r.body))).not.toContain('Stop counting');
  }, PYTHON_TEST_TIMEOUT_MS);

  it('AsyncClient: a coroutine tool behind an async permission answer, calls served while a turn is held, abort', async () => {
    const before = d.replay.requests.length;
    d.replay.enqueue({ body: chatToolCallSse([{ id: 'call_city', name: 'lookup_city', arguments: { code: 'PAR' } }]) });
    d.replay.enqueue({ body: chatCompletionSse(['PAR is ', 'Paris.']) });
    d.replay.enqueue(heldStream(['Counting: ', 'one ', 'two '], 'Counting: '));

    const summary = await runScenario('e2e_async_scenario.py', { ...process.env, AGENTD_SOCKET: d.socketPath, AGENTD_WORKSPACE: d.workspace });

    expect(summary.registered).toEqual(['lookup_city']);
    expect(summary.lookup.streamed.join('')).toBe('PAR is Paris.');
    expect(summary.lookup).toEqual({
      stopReason: 'end_turn',
      text: 'PAR is Paris.',
      streamed: expect.any(Array),
      cities: ['PAR'],
      // Registered without `access`: the daemon's default (execute) asked, and the coroutine handler allowed it.
      permissions: [{ title: expect.stringContaining('lookup_city'), rawInput: { code: 'PAR' } }],
    });
    expect(summary.whileHeld).toEqual({ firstChunk: 'Counting: ', toolNames: expect.arrayContaining(['lookup_city', 'read', 'write']), steerQueued: 1 });
    expect(summary.abort).toEqual({ stopReason: 'cancelled', text: 'Counting: ' });
    expect(summary.events).toEqual([
      { type: 'turn_start' },
      { type: 'turn_end', stopReason: 'end_turn' },
      { type: 'turn_start' },
      { type: 'queue', steering: 1 },
      expect.objectContaining({ type: 'queue', steering: 0 }),
      { type: 'turn_end', stopReason: 'cancelled' },
    ]);
    expect(summary.closed).toBe(true);

    const requests = d.replay.requests.slice(before);
    expect(requests).toHaveLength(3);
    expect(toolResultText(requests[1]!.body, 'call_city')).toBe('Paris');
    expect(lastUserText(requests[2]!.body)).toContain('Count slowly');
  }, PYTHON_TEST_TIMEOUT_MS);

  it('Client.spawn and AsyncClient.spawn start `agentd serve --stdio` themselves and end it on close', async () => {
    d.replay.enqueue({ body: chatCompletionSse(['Hello ', 'over stdio.']) });
    d.replay.enqueue({ body: chatCompletionSse(['Hello ', 'from asyncio.']) });
    const before = d.replay.requests.length;

    const summary = await runScenario('e2e_stdio_scenario.py', { ...d.env, AGENTD_E2E_NODE: d.node, AGENTD_E2E_CLI: d.cli, AGENTD_WORKSPACE: d.workspace });

    expect(summary).toEqual({
      sync: { agentInfo: expect.objectContaining({ name: 'agentd' }), stopReason: 'end_turn', text: 'Hello over stdio.', exitCode: 0 },
      async: { agentInfo: expect.objectContaining({ name: 'agentd' }), stopReason: 'end_turn', text: 'Hello from asyncio.', exitCode: 0 },
    });
    const requests = d.replay.requests.slice(before);
    expect(requests.map((r) => lastUserText(r.body))).toEqual([expect.stringContaining('Hello over stdio?'), expect.stringContaining('Hello from asyncio?')]);
  }, PYTHON_TEST_TIMEOUT_MS);
});
