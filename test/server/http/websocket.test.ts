import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { closedWith, logIn, openRpc, type RpcSocket } from '../../support/dashboard-client.js';
import { startDashboardTestBed, type DashboardTestBed } from '../../support/dashboard-test-bed.js';

type OpenSocket = Extract<RpcSocket, { kind: 'open' }>;

describe('[F19 browser] the dashboard\'s WebSocket', () => {
  let bed: DashboardTestBed;
  afterEach(async () => {
    await bed.close();
  });

  async function connect(config: Record<string, unknown> = {}): Promise<{ socket: OpenSocket; call(id: number, method: string, params: unknown): Promise<any> }> {
    bed = await startDashboardTestBed(config);
    const url = await bed.loginUrl();
    const origin = new URL(url).origin;
    const { cookie } = await logIn(url);
    const socket = await openRpc(origin, { Cookie: cookie, Origin: origin });
    if (socket.kind !== 'open') throw new Error(`refused: ${socket.status} ${socket.body}`);
    return {
      socket,
      call: async (id, method, params) => {
        socket.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
        return socket.next((m) => m.id === id);
      },
    };
  }

  it('speaks the daemon\'s protocol: initialize, session/new, a prompt streamed as session/update', async () => {
    const { socket, call } = await connect();
    const init = await call(1, 'initialize', { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'page', version: '0' } });
    expect(init.result.protocolVersion).toBe(1);
    expect(init.result._meta.agentd.features).toContain('dashboard');
    const created = await call(2, 'session/new', { cwd: bed.workspace, mcpServers: [] });
    const sessionId = created.result.sessionId as string;
    expect(sessionId).toMatch(/\S/);
    bed.replay.enqueue({ body: chatCompletionSse(['Hello', ' from', ' the page']) });
    const answer = await call(3, 'session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Say hello' }] });
    expect(answer.result).toEqual({ stopReason: 'end_turn' });
    const chunks = socket.messages
      .filter((m) => m.method === 'session/update' && m.params.sessionId === sessionId && m.params.update.sessionUpdate === 'agent_message_chunk')
      .map((m) => m.params.update.content.text)
      .join('');
    expect(chunks).toBe('Hello from the page');
    // One message per text frame, the daemon's own answers alike: a malformed one is answered and the connection stays.
    socket.socket.send('{"jsonrpc":"2.0","id":4,"method":');
    expect((await socket.next((m) => m.error?.code === -32700)).error!.message).toMatch(/parse error/);
    expect((await call(5, 'daemon/status', {})).result.http).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses dashboard/login on the page\'s own WebSocket', async () => {
    const { call } = await connect();
    await call(1, 'initialize', { protocolVersion: 1 });
    const answer = await call(2, 'dashboard/login', {});
    expect(answer.error.code).toBe(-32012);
    expect(answer.error.message).toMatch(/agentd dashboard/);
    expect(bed.daemon.stderr()).not.toMatch(/token=/);
  });

  it('answers a binary frame with an error and closes', async () => {
    const { socket } = await connect();
    const closed = closedWith(socket.socket);
    socket.socket.send(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}'), { binary: true });
    const error = await socket.next((m) => m.error !== undefined);
    expect(error.error!.message).toMatch(/binary frames are not JSON-RPC/);
    await closed;
  });

  it('closes on a frame over server.maxFrameBytes, the limit of every other transport, and takes one at the limit', async () => {
    const limit = 8192;
    const { socket, call } = await connect({ server: { maxFrameBytes: limit } });
    await call(1, 'initialize', { protocolVersion: 1 });
    // A request of exactly `limit` bytes is read (and answered: its params are wrong, not too big).
    const envelope = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'daemon/status', params: { pad: '' } });
    const atLimit = envelope.replace('"pad":""', `"pad":"${'x'.repeat(limit - envelope.length)}"`);
    expect(Buffer.byteLength(atLimit)).toBe(limit);
    socket.socket.send(atLimit);
    expect((await socket.next((m) => m.id === 2)).error!.code).toBe(-32602);
    const closed = closedWith(socket.socket);
    socket.socket.send(atLimit.replace('"pad":"', '"pad":"x').replace('"id":2', '"id":3'));
    expect((await closed).code).toBe(1009);
    expect(bed.daemon.stderr()).not.toContain('x'.repeat(100));
  });
});
