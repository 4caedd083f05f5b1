import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { JsonRpcPeer } from '../../protocol/wire/json-rpc-peer.js';
import { AgentdClient, AgentdConnectionClosedError, connectWebSocket, type AgentdConnection } from '../../clients/typescript/src/index.js';
import { WebSocketMessageReader } from '../../clients/typescript/src/websocket-message-reader.js';
import { WebSocketMessageWriter } from '../../clients/typescript/src/websocket-message-writer.js';
import { until } from '../support/daemon-process.js';

/**
 * The WebSocket transport against a real WebSocket server on 127.0.0.1 (the `ws` package, as
 * the daemon's `/rpc` uses it) whose side is the protocol's own peer in the daemon's role.
 */
describe('the TypeScript client over a WebSocket', () => {
  let http: Server;
  let wss: WebSocketServer;
  let url: string;
  /** The daemon side of each connection, and every text frame it read. */
  let daemons: Array<{ socket: ServerSocket; peer: JsonRpcPeer<'daemon'>; frames: string[] }>;
  let clients: AgentdConnection[];

  beforeEach(async () => {
    daemons = [];
    clients = [];
    http = createServer((_request, response) => response.writeHead(404).end());
    wss = new WebSocketServer({ server: http });
    wss.on('connection', (socket) => {
      const frames: string[] = [];
      socket.on('message', (data) => frames.push(String(data)));
      const peer = new JsonRpcPeer<'daemon'>(new WebSocketMessageReader(socket), new WebSocketMessageWriter(socket));
      daemons.push({ socket, peer, frames });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/rpc`;
  });

  afterEach(async () => {
    for (const client of clients) client.close();
    for (const { socket } of daemons) socket.terminate();
    wss.close();
    await new Promise((resolve) => http.close(resolve));
  });

  const connect = async (onProtocolError?: (error: Error) => void): Promise<AgentdConnection> => {
    const client = await connectWebSocket(url, { createSocket: (address) => new WebSocket(address), ...(onProtocolError ? { onProtocolError } : {}) });
    clients.push(client);
    return client;
  };

  it('sends a request and reads its answer, one message per text frame; the daemon notifies and asks, the client answers', async () => {
    const client = await connect();
    const updates: unknown[] = [];
    client.onNotification('session/update', (params) => void updates.push(params));
    client.onRequest('session/request_permission', (request) => ({ outcome: { outcome: 'selected', optionId: request.options[0]!.optionId } }));
    const daemon = daemons[0]!;
    daemon.peer.onRequest('session/list', () => {
      daemon.peer.notify('session/update', { sessionId: 'ses_1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } } });
      return { sessions: [] };
    });

    expect(await client.request('session/list', {})).toEqual({ sessions: [] });
    expect(updates).toEqual([{ sessionId: 'ses_1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } } }]);
    expect(daemon.frames.map((frame) => JSON.parse(frame))).toEqual([{ jsonrpc: '2.0', id: 0, method: 'session/list', params: {} }]);

    const answer = await daemon.peer.request('session/request_permission', {
      sessionId: 'ses_1',
      toolCall: { toolCallId: 'call_1', title: 'Write a.txt' },
      options: [{ optionId: 'allow', name: 'Allow once', kind: 'allow_once' }],
    });
    expect(answer).toEqual({ outcome: { outcome: 'selected', optionId: 'allow' } });
  });

  it('cancels an aborted request with $/cancel_request, as ACP spells it', async () => {
    const client = await connect();
    const daemon = daemons[0]!;
    let handlerSignal: AbortSignal | undefined;
    daemon.peer.onRequest('session/list', (_params, { signal }) => {
      handlerSignal = signal;
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ sessions: [] })));
    });
    const controller = new AbortController();
    const listing = client.request('session/list', {}, { signal: controller.signal });
    await until(() => handlerSignal !== undefined);
    controller.abort();
    await listing;
    expect(handlerSignal!.aborted).toBe(true);
    expect(daemon.frames.map((frame) => JSON.parse(frame))).toContainEqual({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 0 } });
  });

  it('reports a frame that is not a JSON message and keeps the connection', async () => {
    const problems: string[] = [];
    const client = await connect((error) => problems.push(error.message));
    const daemon = daemons[0]!;
    daemon.peer.onRequest('session/list', () => ({ sessions: [] }));
    daemon.socket.send('not json');
    daemon.socket.send('[1,2]');
    expect(await client.request('session/list', {})).toEqual({ sessions: [] });
    expect(problems).toEqual(['agentd client: received a frame that is not JSON: not json', 'agentd client: received a JSON value that is not a message object: [1,2]']);
  });

  it('rejects a waiting request when the daemon closes the socket, and settles closed', async () => {
    const client = await connect();
    daemons[0]!.peer.onRequest('session/list', () => new Promise(() => undefined));
    const listing = client.request('session/list', {});
    await until(() => daemons[0]!.frames.length === 1);
    daemons[0]!.socket.close(1001, 'going away');
    await expect(listing).rejects.toBeInstanceOf(AgentdConnectionClosedError);
    await client.closed;
    await expect(client.request('session/list', {})).rejects.toBeInstanceOf(AgentdConnectionClosedError);
  });

  it('fails to connect with a sentence naming the address when the upgrade is refused', async () => {
    http.removeAllListeners('upgrade');
    http.on('upgrade', (_request, socket) => socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n'));
    await expect(connectWebSocket(url, { createSocket: (address) => new WebSocket(address).on('error', () => undefined) })).rejects.toThrow(
      `cannot open a WebSocket to ${url}: the daemon refused it or is not running (sign in again from \`agentd dashboard\` if the login expired)`,
    );
  });

  it('builds the full client, with the table methods, from a reader and writer pair', async () => {
    const socket = new WebSocket(url);
    await new Promise((resolve) => socket.once('open', resolve));
    const client = new AgentdClient(new WebSocketMessageReader(socket), new WebSocketMessageWriter(socket));
    clients.push(client);
    await until(() => daemons.length === 1);
    daemons[0]!.peer.onRequest('session/list', () => ({ sessions: [] }));
    expect(await client.listSessions({})).toEqual({ sessions: [] });
  });
});
