import { PassThrough } from 'node:stream';
import { ResponseError } from 'vscode-jsonrpc/node.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AgentdClient,
  AgentdClientError,
  AgentdConnectionClosedError,
} from '../../clients/typescript/src/index.js';
import { ErrorCodes, methodsByName, type AgentdEventNotification, type SessionNotification } from '../../protocol/index.js';
import { RpcPeer, type WireMessage } from '../support/rpc-peer.js';

/**
 * A daemon stand-in on the far end of two PassThrough streams, on the tests' vscode-jsonrpc
 * peer: it validates params with the real protocol schemas, answers a few methods, leaves
 * the rest unanswered (the close test needs one pending) and can send its own requests.
 */
function fakeDaemon(input: PassThrough, output: PassThrough): RpcPeer<'daemon'> {
  const daemon = new RpcPeer<'daemon'>(input, output);
  for (const method of methodsByName.keys()) daemon.onRequestUnchecked(method, (params) => answer(daemon, method, params));
  return daemon;
}

/** Sends a request to the client with an id the test chose and waits for its answer. */
function ask(daemon: RpcPeer<'daemon'>, id: string, method: string, params: unknown): Promise<WireMessage> {
  daemon.send({ jsonrpc: '2.0', id, method, params });
  return daemon.waitFor((m) => m.id === id && m.method === undefined);
}

async function answer(daemon: RpcPeer<'daemon'>, method: string, params: unknown): Promise<unknown> {
  const parsed = methodsByName.get(method)!.params.safeParse(params);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    return new ResponseError(ErrorCodes.InvalidParams, `invalid params for ${method}`, { issues });
  }
  const p = params as { sessionId?: string };
  switch (method) {
    case 'session/new':
      return { sessionId: 'ses_test' };
    case 'session/prompt': {
      if (p.sessionId !== 'ses_test') return new ResponseError(ErrorCodes.ResourceNotFound, `unknown session ${p.sessionId}`);
      daemon.notify('session/update', { sessionId: 'ses_test', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hi' } } });
      daemon.notify('agentd/event', { sessionId: 'ses_test', event: { type: 'turn_start', turnId: 't1' } });
      const tool = await ask(daemon, 'd1', 'tools/call', { sessionId: 'ses_test', toolCallId: 'c1', name: 'open_in_editor', arguments: { path: 'a.ts' } });
      return { stopReason: 'end_turn', _meta: { toolAnswer: tool.result } };
    }
    case 'session/compact':
      await daemon.waitFor((m) => m.method === '$/cancel_request');
      return new ResponseError(ErrorCodes.RequestCancelled, 'compaction cancelled');
    default:
      return new Promise(() => undefined); // left unanswered on purpose (used by the close test)
  }
}

describe('AgentdClient over NDJSON', () => {
  let toDaemon: PassThrough;
  let toClient: PassThrough;
  let daemon: RpcPeer<'daemon'>;
  let client: AgentdClient;
  let protocolErrors: Error[];

  beforeEach(() => {
    toDaemon = new PassThrough();
    toClient = new PassThrough();
    daemon = fakeDaemon(toDaemon, toClient);
    protocolErrors = [];
    client = new AgentdClient(toClient, toDaemon, { onProtocolError: (error) => protocolErrors.push(error) });
  });

  afterEach(() => {
    client.close();
    toClient.end();
  });

  it('runs a typed prompt turn with notifications and a daemon → client tools/call', async () => {
    const updates: SessionNotification[] = [];
    const events: AgentdEventNotification[] = [];
    client.onNotification('session/update', (params) => updates.push(params));
    client.onNotification('agentd/event', (params) => events.push(params));
    client.onRequest('tools/call', (params) => ({ content: [{ type: 'text', text: `opened ${String(params.arguments.path)}` }] }));

    const { sessionId } = await client.newSession({ cwd: '/tmp/project', mcpServers: [] });
    expect(sessionId).toBe('ses_test');
    const result = await client.prompt({ sessionId, prompt: [{ type: 'text', text: 'hello' }] });

    expect(result).toEqual({
      stopReason: 'end_turn',
      _meta: { toolAnswer: { content: [{ type: 'text', text: 'opened a.ts' }] } },
    });
    expect(updates).toEqual([
      { sessionId: 'ses_test', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hi' } } },
    ]);
    expect(events).toEqual([{ sessionId: 'ses_test', event: { type: 'turn_start', turnId: 't1' } }]);
    expect(daemon.received.map((m) => m.method ?? `answer ${String(m.id)}`)).toEqual([
      'session/new',
      'session/prompt',
      'answer d1',
    ]);
  });

  it('rejects an error answer with AgentdClientError carrying code, message and data', async () => {
    const unknown = client.prompt({ sessionId: 'nope', prompt: [] });
    await expect(unknown).rejects.toMatchObject({ name: 'AgentdClientError', code: ErrorCodes.ResourceNotFound, message: 'unknown session nope' });

    const invalid = await client.steer({ sessionId: 's', prompt: [{ type: 'txt' } as never] }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(AgentdClientError);
    expect(invalid).toMatchObject({ code: ErrorCodes.InvalidParams, codeName: 'InvalidParams', data: { issues: [expect.stringContaining('prompt.0.type')] } });
  });

  it('sends notifications without an id', async () => {
    client.cancel({ sessionId: 'ses_test' });
    const message = await daemon.waitFor((m) => m.method === 'session/cancel');
    expect(message).toEqual({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'ses_test' } });
  });

  it('sends $/cancel_request when the signal aborts and still settles with the answer', async () => {
    const controller = new AbortController();
    const compaction = client.compact({ sessionId: 'ses_test' }, { signal: controller.signal });
    const request = await daemon.waitFor((m) => m.method === 'session/compact');
    controller.abort();
    await expect(compaction).rejects.toMatchObject({ code: ErrorCodes.RequestCancelled });
    expect(daemon.received).toContainEqual({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: request.id } });
  });

  it('answers daemon requests: handler errors keep their code, missing handlers get MethodNotFound', async () => {
    client.onRequest('tools/call', () => {
      throw new AgentdClientError(ErrorCodes.ToolError, 'editor is not running');
    });
    expect(await ask(daemon, 'd2', 'tools/call', { sessionId: 's', toolCallId: 'c', name: 'x', arguments: {} })).toEqual({
      jsonrpc: '2.0',
      id: 'd2',
      error: { code: ErrorCodes.ToolError, message: 'editor is not running' },
    });
    const missing = await ask(daemon, 'd3', 'hooks/beforeToolCall', { sessionId: 's', toolCallId: 'c', name: 'bash', arguments: {} });
    expect(missing.error).toMatchObject({ code: ErrorCodes.MethodNotFound, message: expect.stringContaining("onRequest('hooks/beforeToolCall'") });
  });

  it('aborts a handler\'s signal when the daemon cancels its request', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    client.onRequest('session/request_permission', (_params, { signal }) => {
      started();
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ outcome: { outcome: 'cancelled' } })));
    });
    const answer = ask(daemon, 'd4', 'session/request_permission', {
      sessionId: 's',
      toolCall: { toolCallId: 'c', title: 'Run ls' },
      options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }],
    });
    await running;
    daemon.notify('$/cancel_request', { requestId: 'd4' });
    expect(await answer).toEqual({ jsonrpc: '2.0', id: 'd4', result: { outcome: { outcome: 'cancelled' } } });
  });

  it.each([
    ['$/cancel_request', { requestId: 'd5' }],
    ['$/cancelRequest', { id: 'd5' }],
  ] as const)('answers RequestCancelled without running the handler when %s comes with the request', async (method, params) => {
    let ran = false;
    client.onRequest('session/request_permission', () => {
      ran = true;
      return { outcome: { outcome: 'cancelled' } };
    });
    const answer = ask(daemon, 'd5', 'session/request_permission', {
      sessionId: 's',
      toolCall: { toolCallId: 'c', title: 'Run ls' },
      options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }],
    });
    daemon.notify(method, params);
    expect((await answer).error).toMatchObject({ code: ErrorCodes.RequestCancelled });
    expect(ran).toBe(false);
  });

  it('reports malformed lines and keeps working', async () => {
    toClient.write('this is not json\n');
    toClient.write('{"jsonrpc":"2.0","id":999,"result":{}}\n');
    const { sessionId } = await client.newSession({ cwd: '/tmp/p', mcpServers: [] });
    expect(sessionId).toBe('ses_test');
    expect(protocolErrors.map((error) => error.message)).toEqual([
      expect.stringContaining('not JSON'),
      expect.stringContaining('unknown request id 999'),
    ]);
  });

  it('rejects pending requests when the connection closes', async () => {
    const pending = client.listTools({});
    await daemon.waitFor((m) => m.method === 'tools/list');
    toClient.end();
    await expect(pending).rejects.toBeInstanceOf(AgentdConnectionClosedError);
    await client.closed;
    await expect(client.listSessions({})).rejects.toBeInstanceOf(AgentdConnectionClosedError);
  });
});
