import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { daemonEnv, makeHome, until } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import type { RpcPeer } from '../support/rpc-peer.js';
import { runFinished } from '../support/schedule-test-bed.js';

// F8: an MCP server of the user's config serves every session, one session's calls at a
// time. What it asks of agentd (sampling, a form) belongs to the session whose call to it
// is in flight; with none in flight agentd cannot tell and refuses — it never guesses, so
// one session's mode, user or budget never answers for another's.

const SAMPLER = fileURLToPath(new URL('../fixtures/mcp/samples-during-call.mjs', import.meta.url));
const REFUSED = /refused: .*cannot tell which session this request belongs to/;

interface Bed {
  replay: ReplayServer;
  home: ReturnType<typeof makeHome>;
  workspace: string;
  daemon: InProcessDaemon;
  /** Two editors, each with its own session of the same workspace. */
  a: { peer: RpcPeer; sessionId: string };
  b: { peer: RpcPeer; sessionId: string };
  /** Every sampling question asked, with the session and client it went to. */
  samplingQuestions: Array<{ client: 'a' | 'b'; sessionId: string }>;
}

let bed: Bed;

afterEach(async () => {
  await bed.daemon.close();
  await bed.replay.close();
  bed.home.cleanup();
  rmSync(bed.workspace, { recursive: true, force: true });
});

/** A daemon whose config has the sampler server, a priced model, and `extra` config. */
async function start(extra: Record<string, unknown> = {}, respond?: Parameters<typeof startReplayServer>[0]): Promise<Bed> {
  const replay = await startReplayServer(respond ?? {});
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'agentd-ws-')));
  const home = makeHome({
    model: 'local/e2e-model',
    providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, models: { 'e2e-model': { inputPrice: 100, outputPrice: 100 } } } },
    mcpServers: { sampler: { command: process.execPath, args: [SAMPLER] } },
    ...extra,
  });
  const daemon = startInProcessDaemon(daemonEnv(home.home), process.cwd());
  const samplingQuestions: Bed['samplingQuestions'] = [];
  const client = async (name: 'a' | 'b', peer: RpcPeer): Promise<{ peer: RpcPeer; sessionId: string }> => {
    await peer.call('initialize', { protocolVersion: 1, clientCapabilities: { elicitation: { form: {} } }, _meta: { agentd: { events: true } } });
    // Every question is allowed: what matters is whether, and whom, agentd asks.
    peer.onRequest('session/request_permission', (params) => {
      if (JSON.stringify(params).includes('asks to use your model')) samplingQuestions.push({ client: name, sessionId: params.sessionId });
      return { outcome: { outcome: 'selected', optionId: 'allow_once' } };
    });
    peer.onRequest('elicitation/create', () => ({ action: 'accept', content: { ok: true } }));
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    return { peer, sessionId };
  };
  const a = await client('a', daemon.peer);
  const b = await client('b', daemon.connect());
  await until(async () => (await a.peer.call('tools/list', { sessionId: a.sessionId })).tools.some((t: { name: string }) => t.name === 'sampler__sample'), 20_000, 'the sampler\'s tools');
  bed = { replay, home, workspace, daemon, a, b, samplingQuestions };
  return bed;
}

/** A model answer that calls one sampler tool (priced: 20 + 10 tokens, $0.003). */
function callTool(id: string, tool: string, args: Record<string, unknown>): void {
  bed.replay.enqueue({ body: chatToolCallSse([{ id, name: `sampler__${tool}`, arguments: args }]) });
}

/** A free final answer. */
function finalAnswer(): void {
  bed.replay.enqueue({ body: chatCompletionSse(['ok'], { promptTokens: 0, completionTokens: 0 }) });
}

/** The stored text of a tool call's result in a session. */
async function resultOf(sessionId: string, callId: string): Promise<string> {
  const { store } = (await bed.daemon.context()).sessions;
  const tool = (await store.listMessages(sessionId)).find((m) => m.role === 'tool' && JSON.stringify(m.content).includes(callId));
  return JSON.stringify(tool?.content ?? null);
}

/** Resolves once the session's tool call has been allowed (and so has started). */
async function callStarted(peer: RpcPeer, sessionId: string, callId: string): Promise<void> {
  await peer.waitFor(
    (m) => m.params?.sessionId === sessionId && m.params.update?.toolCallId === callId && m.params.update.status === 'in_progress',
    10_000,
    `${callId} running`,
  );
}

const prompt = (who: { peer: RpcPeer; sessionId: string }, text: string): Promise<unknown> =>
  who.peer.call('session/prompt', { sessionId: who.sessionId, prompt: [{ type: 'text', text }] });

/**
 * Answers each model request from what it asks, for sessions running at once (a FIFO
 * queue cannot say which gets which): a prompt named in `calls` gets its tool call, a
 * sampling request gets "sampled: <its text>", and a request after a tool result ends the turn.
 */
function byPrompt(calls: Record<string, [id: string, tool: string, args: Record<string, unknown>]>) {
  return (request: { body: unknown }) => {
    const messages = (request.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    if (messages.some((m) => m.role === 'tool')) return { body: chatCompletionSse(['ok'], { promptTokens: 0, completionTokens: 0 }) };
    const last = messages.at(-1)!;
    const text = typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
    const call = Object.entries(calls).find(([prompted]) => text.includes(`"${prompted}"`) || text === prompted);
    if (call) {
      const [id, tool, args] = call[1];
      return { body: chatToolCallSse([{ id, name: `sampler__${tool}`, arguments: args }]) };
    }
    // A sampling answer costs 2,000 tokens at $100/M: $0.2.
    return { body: chatCompletionSse([`sampled: ${text.replace(/^.*"text":"([^"]*)".*$/, '$1')}`], { promptTokens: 1000, completionTokens: 1000 }) };
  };
}

describe('F8 MCP requests of a config server belong to the session whose call caused them', () => {
  it.each(['sample', 'elicit'] as const)(
    'F8 session B\'s call (%s) while session A\'s call runs waits its turn; what it asks is asked of B only',
    async (tool) => {
      await start({}, { respond: byPrompt({ wait: ['call_a', 'wait', { ms: 1500 }], [tool]: ['call_b', tool, tool === 'sample' ? { text: 'for b', waitMs: 0 } : { waitMs: 0 }] }) });
      const first = prompt(bed.a, 'wait');
      await callStarted(bed.a.peer, bed.a.sessionId, 'call_a');
      await prompt(bed.b, tool);
      await first;
      const result = await resultOf(bed.b.sessionId, 'call_b');
      expect(result).not.toMatch(REFUSED);
      if (tool === 'sample') {
        expect(result).toContain('sampled: for b');
        expect(bed.samplingQuestions).toEqual([{ client: 'b', sessionId: bed.b.sessionId }]);
      } else {
        expect(bed.a.peer.received.some((m) => m.method === 'elicitation/create')).toBe(false);
        expect(bed.b.peer.received.filter((m) => m.method === 'elicitation/create')).toHaveLength(1);
      }
    },
  );

  it('F8 both sessions sample through one server at once: each is asked of its own client and answered for itself', async () => {
    await start({}, { respond: byPrompt({ 'sample a': ['call_a', 'sample', { text: 'for a', waitMs: 300 }], 'sample b': ['call_b', 'sample', { text: 'for b', waitMs: 300 }] }) });
    await Promise.all([prompt(bed.a, 'sample a'), prompt(bed.b, 'sample b')]);
    expect(await resultOf(bed.a.sessionId, 'call_a')).toContain('sampled: for a');
    expect(await resultOf(bed.b.sessionId, 'call_b')).toContain('sampled: for b');
    expect(bed.samplingQuestions).toHaveLength(2);
    expect(bed.samplingQuestions).toEqual(expect.arrayContaining([{ client: 'a', sessionId: bed.a.sessionId }, { client: 'b', sessionId: bed.b.sessionId }]));
    // Each billed for its own: the tool call's request ($0.003) and its own sampling ($0.2).
    const { sessions } = await bed.daemon.context();
    for (const who of [bed.a, bed.b]) expect((await sessions.store.getSession(who.sessionId))!.totalCostUsd).toBeCloseTo(0.203, 9);
  });

  it('F8 a sampling request with no call in flight (sent after the call ended) is refused', async () => {
    await start();
    callTool('call_later', 'sampleLater', { ms: 200 });
    finalAnswer();
    await prompt(bed.a, 'later');
    await new Promise((resolve) => setTimeout(resolve, 600));
    callTool('call_outcome', 'lateOutcome', {});
    finalAnswer();
    await prompt(bed.a, 'what came back?');
    const outcome = await resultOf(bed.a.sessionId, 'call_outcome');
    expect(outcome).toMatch(REFUSED);
    expect(outcome).toContain('no tool call to MCP server');
    expect(bed.samplingQuestions).toEqual([]);
  });

  it('F8 one session\'s call alone: its sampling is asked of its own client only, and answered', async () => {
    await start();
    callTool('call_b', 'sample', { text: 'b', waitMs: 0 });
    bed.replay.enqueue({ body: chatCompletionSse(['sampled for b'], { promptTokens: 0, completionTokens: 0 }) });
    finalAnswer();
    await prompt(bed.b, 'sample');
    expect(await resultOf(bed.b.sessionId, 'call_b')).toContain('sampled for b');
    expect(bed.samplingQuestions).toEqual([{ client: 'b', sessionId: bed.b.sessionId }]);
  });

  it('F8 an ask session samples while a bypass run waits for the server: asked of the ask session\'s client, never approved by the run\'s mode', async () => {
    await start({}, { respond: byPrompt({ sample: ['call_ask', 'sample', { text: 'ask session', waitMs: 800 }], wait: ['call_run', 'wait', { ms: 100 }] }) });
    const run = await (await bed.daemon.context()).sessions.open(bed.a.sessionId);
    const asking = prompt(bed.b, 'sample');
    await callStarted(bed.b.peer, bed.b.sessionId, 'call_ask');
    const running = run.submit([{ type: 'text', text: 'wait' }], { run: { permissionMode: 'bypass' } }).outcome;
    await Promise.all([asking, running]);
    expect(await resultOf(bed.b.sessionId, 'call_ask')).toContain('sampled: ask session');
    // The ask session's own client was asked; the run's bypass answered nothing for it.
    expect(bed.samplingQuestions).toEqual([{ client: 'b', sessionId: bed.b.sessionId }]);
  });
});

describe('F8 a scheduled run is headless for its MCP servers too', () => {
  it('F8 a scheduled run\'s server asks for a form while a client has the run\'s session open: refused, nobody is shown it', async () => {
    await start();
    const { schedule } = await bed.a.peer.call('schedules/add', { name: 'elicits', cron: '0 0 1 1 *', prompt: 'elicit', cwd: bed.workspace, permissionMode: 'bypass' });
    callTool('call_run', 'elicit', { waitMs: 1000 });
    finalAnswer();
    const run = await bed.a.peer.call('schedules/run', { id: schedule.id });
    await bed.a.peer.call('session/load', { sessionId: run.sessionId!, cwd: bed.workspace, mcpServers: [] });
    expect(await runFinished(bed.a.peer, run.runId)).toMatchObject({ outcome: 'completed' });
    expect(await resultOf(run.sessionId!, 'call_run')).toMatch(/refused: .*scheduled run, which is headless: nobody is asked to fill in MCP server \\"sampler\\"'s form/);
    expect(bed.a.peer.received.some((m) => m.method === 'elicitation/create')).toBe(false);
  });
});

describe('F8 the cost of a server\'s sampling is its session\'s', () => {
  it('F8 the sampling cost is added to the session\'s cost (live and stored), not another session\'s', async () => {
    await start();
    callTool('call_b', 'sample', { text: 'b', waitMs: 0 });
    // The sampling answer costs 2,000 tokens at $100/M: $0.2.
    bed.replay.enqueue({ body: chatCompletionSse(['sampled'], { promptTokens: 1000, completionTokens: 1000 }) });
    finalAnswer();
    await prompt(bed.b, 'sample');
    const { sessions } = await bed.daemon.context();
    expect(sessions.get(bed.b.sessionId)!.record.totalCostUsd).toBeCloseTo(0.203, 9);
    expect((await sessions.store.getSession(bed.b.sessionId))!.totalCostUsd).toBeCloseTo(0.203, 9);
    expect(sessions.get(bed.a.sessionId)!.record.totalCostUsd).toBe(0);
  });

  it('F8 a sampling that reaches the session\'s budget stops its turn before the next model request', async () => {
    await start({ budgetUsd: 0.1 });
    callTool('call_b', 'sample', { text: 'b', waitMs: 0 });
    bed.replay.enqueue({ body: chatCompletionSse(['sampled'], { promptTokens: 1000, completionTokens: 1000 }) });
    finalAnswer();
    const answer = (await prompt(bed.b, 'sample')) as { _meta?: { agentd?: { outcome?: string } } };
    expect(answer._meta?.agentd?.outcome).toBe('budget_exceeded');
    expect(bed.replay.requests).toHaveLength(2);
  });

  it.each([
    ['the config budget', { budgetUsd: 0.002 }, false],
    ['a run\'s own budget', {}, true],
  ] as const)('F8 a session whose spending has reached %s gets no sampling: refused, saying so', async (_what, config, viaRun) => {
    await start(config);
    callTool('call_b', 'sample', { text: 'b', waitMs: 0 });
    finalAnswer();
    if (viaRun) await (await (await bed.daemon.context()).sessions.open(bed.b.sessionId)).submit([{ type: 'text', text: 'sample' }], { run: { budgetUsd: 0.002 } }).outcome;
    else await prompt(bed.b, 'sample');
    expect(await resultOf(bed.b.sessionId, 'call_b')).toMatch(/sampling refused: This session has cost \$0\.003.*budget of \$0\.002/);
    // The tool call's request only: nothing was sampled.
    expect(bed.replay.requests).toHaveLength(1);
  });
});
