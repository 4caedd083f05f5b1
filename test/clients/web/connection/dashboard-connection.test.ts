import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import type { ParamsOf } from '../../../../protocol/index.js';
import { JsonRpcPeer } from '../../../../protocol/wire/json-rpc-peer.js';
import type { AgentdConnection } from '../../../../clients/typescript/src/browser.js';
import { WebSocketMessageReader } from '../../../../clients/typescript/src/websocket-message-reader.js';
import { WebSocketMessageWriter } from '../../../../clients/typescript/src/websocket-message-writer.js';
import { DashboardConnection } from '../../../../clients/web/src/connection/dashboard-connection.js';
import { until } from '../../../support/daemon-process.js';

/** The page's connection against a real WebSocket server on 127.0.0.1 that answers `initialize` as the daemon does. */
describe("the page's connection", () => {
  let http: Server;
  let wss: WebSocketServer;
  let url: string;
  let sockets: ServerSocket[];
  let initialized: Array<ParamsOf<'initialize'>>;
  let connection: DashboardConnection | undefined;

  beforeEach(async () => {
    sockets = [];
    initialized = [];
    http = createServer((_request, response) => response.writeHead(404).end());
    wss = new WebSocketServer({ server: http });
    wss.on('connection', (socket) => {
      sockets.push(socket);
      const peer = new JsonRpcPeer<'daemon'>(new WebSocketMessageReader(socket), new WebSocketMessageWriter(socket));
      peer.onRequest('initialize', (params) => {
        initialized.push(params);
        return { protocolVersion: 1, agentCapabilities: {}, authMethods: [] };
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/rpc`;
  });

  afterEach(async () => {
    connection?.stop();
    for (const socket of sockets) socket.terminate();
    wss.close();
    await new Promise((resolve) => http.close(resolve));
  });

  const open = (attached: AgentdConnection[]): DashboardConnection =>
    (connection = new DashboardConnection(url, (client) => void attached.push(client), (address) => new WebSocket(address)));

  it('attaches its handlers, initializes with daemon events on, and reconnects after the daemon closes the socket', async () => {
    const attached: AgentdConnection[] = [];
    const page = open(attached);
    page.reconnect();
    expect(page.status.value).toBe('connecting');
    await until(() => page.status.value === 'connected', 5_000, 'connected');
    expect(attached).toHaveLength(1);
    expect(page.client.value).toBe(attached[0]);
    expect(initialized).toMatchObject([{ protocolVersion: 1, clientInfo: { name: 'agentd-dashboard' }, _meta: { agentd: { events: true } } }]);

    sockets[0]!.terminate();
    await until(() => page.status.value === 'disconnected', 5_000, 'disconnected');
    expect(page.client.value).toBeNull();
    expect(page.problem.value).toBe('the connection to agentd closed');

    page.reconnect();
    page.reconnect();
    await until(() => page.status.value === 'connected', 5_000, 'connected again');
    expect(attached).toHaveLength(2);
    expect(sockets).toHaveLength(2);
    expect(page.problem.value).toBeNull();
  });

  it('says why it cannot connect when the upgrade is refused, and stays down once stopped', async () => {
    http.removeAllListeners('upgrade');
    http.on('upgrade', (_request, socket) => socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n'));
    const page = new DashboardConnection(url, () => undefined, (address) => new WebSocket(address).on('error', () => undefined));
    connection = page;
    page.reconnect();
    await until(() => page.status.value === 'disconnected', 5_000, 'refused');
    expect(page.problem.value).toMatch(/^cannot open a WebSocket to ws:\/\/127\.0\.0\.1:\d+\/rpc: the daemon refused it/);
    page.stop();
    expect(page.status.value).toBe('disconnected');
  });
});
