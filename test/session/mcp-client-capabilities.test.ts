import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateDaemonWire } from '../support/acp-wire-validator.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, toolResultText } from '../support/chat-tool-call-sse.js';
import { daemonEnv, makeHome, until } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

/** The reference server from npm: it asks for roots, sampling and sends progress. */
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

interface Question {
  toolCall: { toolCallId: string; title: string };
  options: Array<{ optionId: string; kind: string }>;
  _meta?: unknown;
}

/** What agentd serves an MCP server as its client: roots, sampling (asked, then the session's model), progress. */
describe('MCP client capabilities with server-everything', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemon: InProcessDaemon;
  let sessionId: string;
  let questions: Question[];
  /** The answer to the sampling question (the tool call itself is always allowed). */
  let samplingAnswer: 'allow_once' | 'reject_once';

  beforeEach(async () => {
    replay = await startReplayServer();
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'agentd-ws-')));
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    // The default mode: MCP tools ask, and so does a server's sampling request.
    daemon = startInProcessDaemon(daemonEnv(home.home), process.cwd());
    // A client that shows forms (ACP elicitation/create).
    await daemon.peer.call('initialize', { protocolVersion: 1, clientCapabilities: { elicitation: { form: {} } } });
    questions = [];
    samplingAnswer = 'allow_once';
    daemon.peer.onRequest('session/request_permission', (params: Question) => {
      questions.push(params);
      const sampling = JSON.stringify(params).includes('asks to use your model');
      return { outcome: { outcome: 'selected', optionId: sampling ? samplingAnswer : 'allow_once' } };
    });
    const everything = { name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'], env: [] };
    ({ sessionId } = await daemon.peer.call('session/new', { cwd: workspace, mcpServers: [everything] }));
    const ready = async (): Promise<boolean> => (await daemon.peer.call('tools/list', { sessionId })).tools.some((t: { name: string }) => t.name === 'everything__echo');
    await until(ready, 20_000, 'server-everything\'s tools');
  });

  afterEach(async () => {
    await daemon.close();
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  async function callTool(id: string, name: string, args: Record<string, unknown>, modelAnswers: string[][]): Promise<string> {
    const before = replay.requests.length;
    replay.enqueue({ body: chatToolCallSse([{ id, name, arguments: args }]) });
    for (const pieces of modelAnswers) replay.enqueue({ body: chatCompletionSse(pieces) });
    await daemon.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: `call ${name}` }] });
    return toolResultText(replay.requests.at(-1)!.body, id) + (replay.requests.length - before === modelAnswers.length + 1 ? '' : ' (unexpected request count)');
  }

  it('serves sampling with the session\'s model once the user allows it', async () => {
    const result = await callTool('call_sample', 'everything__trigger-sampling-request', { prompt: 'hello', maxTokens: 10 }, [['A sampled answer.'], ['Done.']]);
    expect(result).toContain('A sampled answer.');
    // The sampling request went to the session's model with the server's messages only.
    const sampled = replay.requests.at(-2)!.body as { messages: Array<{ role: string; content: unknown }>; tools?: unknown; max_tokens?: number; max_completion_tokens?: number };
    expect(sampled.messages).toEqual([
      { role: 'system', content: 'You are a helpful test server.' },
      { role: 'user', content: 'Resource trigger-sampling-request context: hello' },
    ]);
    expect(sampled.tools).toBeUndefined();
    // Asked twice: the tool call, then the server's wish to use the model.
    expect(questions.map((q) => q.toolCall.toolCallId)).toEqual(['call_sample', 'call_sample']);
    expect(JSON.stringify(questions[1])).toContain('MCP server \\"everything\\" asks to use your model (sampling, up to 10 tokens)');
  });

  it('refuses sampling when the user refuses, and the model is not asked', async () => {
    samplingAnswer = 'reject_once';
    const result = await callTool('call_sample', 'everything__trigger-sampling-request', { prompt: 'hello', maxTokens: 10 }, [['Done.']]);
    expect(result).toMatch(/The user refused this sampling request\.$/);
    expect(result).not.toContain('unexpected request count');
  });

  it('shows the server\'s progress notifications as tool_call_update content', async () => {
    const result = await callTool('call_long', 'everything__trigger-long-running-operation', { duration: 1, steps: 3 }, [['Done.']]);
    expect(result).toContain('Long running operation completed');
    const progress = daemon.peer
      .updates(sessionId)
      .filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'call_long' && u.status === 'in_progress' && u.content)
      .map((u) => u.content[0].content.text);
    // The last step's notification races the result (the SDK drops progress once the call answered).
    expect(progress.slice(0, 2)).toEqual(['Progress: 1/3\n', 'Progress: 1/3\nProgress: 2/3\n']);
  });

  it('puts a server\'s form to the user through ACP elicitation/create and hands back the answer', async () => {
    const forms: Array<Record<string, unknown>> = [];
    daemon.peer.onRequest('elicitation/create', (params) => {
      forms.push(params);
      return { action: 'accept', content: { name: 'Ada Lovelace' } };
    });
    const result = await callTool('call_form', 'everything__trigger-elicitation-request', {}, [['Done.']]);
    expect(result).toContain('User provided the requested information');
    expect(result).toContain('Ada Lovelace');
    expect(forms).toEqual([
      {
        mode: 'form',
        sessionId,
        toolCallId: 'call_form',
        message: 'MCP server "everything" asks: Please provide inputs for the following fields:',
        requestedSchema: expect.objectContaining({ type: 'object', required: ['name'] }),
      },
    ]);
    // What the daemon sent, the form and the permission questions included, is valid ACP.
    expect(validateDaemonWire(daemon.peer.sentLines, daemon.peer.rawLines)).toEqual([]);
  });

  it('tells the server no form could be shown when no client of the session declared elicitation', async () => {
    const plain = daemon.connect();
    await plain.call('initialize', { protocolVersion: 1 });
    plain.onRequest('session/request_permission', () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }));
    const everything = { name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'], env: [] };
    const own = (await plain.call('session/new', { cwd: workspace, mcpServers: [everything] })).sessionId as string;
    const ready = async (): Promise<boolean> => (await plain.call('tools/list', { sessionId: own })).tools.some((t: { name: string }) => t.name === 'everything__echo');
    await until(ready, 20_000, 'server-everything\'s tools');
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_form', name: 'everything__trigger-elicitation-request', arguments: {} }]) });
    replay.enqueue({ body: chatCompletionSse(['Done.']) });
    await plain.call('session/prompt', { sessionId: own, prompt: [{ type: 'text', text: 'ask me' }] });
    expect(toolResultText(replay.requests.at(-1)!.body, 'call_form')).toContain('no client of this session can show a form');
    expect(daemon.peer.received.some((m) => m.method === 'elicitation/create')).toBe(false);
  });

  it('lists the session\'s directory as its root', async () => {
    const result = await callTool('call_roots', 'everything__get-roots-list', {}, [['Done.']]);
    expect(result).toContain(pathToFileURL(workspace).href);
  });
});
