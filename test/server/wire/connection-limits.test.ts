import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { JsonRpcConnection } from '../../../src/server/wire/json-rpc-connection.js';
import { RpcPeer } from '../../support/rpc-peer.js';

/** A connection on probation, as TCP serves one before the token: small frames, no second chance. */
function probation() {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const connection = new JsonRpcConnection(toServer, fromServer, { label: 'test', maxFrameBytes: 1024, closeOnMalformed: true });
  connection.setHandler({ request: async (_m, params) => ({ echo: params }), notification() {} });
  return { connection, peer: new RpcPeer(fromServer, toServer) };
}

const closedOf = (connection: JsonRpcConnection) => new Promise<void>((resolve) => connection.onClose(resolve));

describe('connection limits', () => {
  it.each([
    ['not JSON', 'nope\n', -32700],
    ['a batch', '[{"jsonrpc":"2.0","id":1,"method":"x"}]\n', -32600],
    ['a wrong jsonrpc version', '{"jsonrpc":"1.0","id":1,"method":"x"}\n', -32600],
    ['a JSON scalar', '42\n', -32600],
  ])('[F11 transport-limits] %s on probation is answered once, then the connection closes', async (_name, bytes, code) => {
    const { connection, peer } = probation();
    const closed = closedOf(connection);
    peer.writeRaw(bytes);
    expect((await peer.waitFor((m) => m.error !== undefined)).error!.code).toBe(code);
    await closed;
    expect(connection.closed).toBe(true);
  });

  it('[F11 transport-limits] raising the limits ends the probation: bigger frames and malformed messages no longer close', async () => {
    const { connection, peer } = probation();
    connection.setLimits({ maxFrameBytes: 64 * 1024, closeOnMalformed: false });
    const big = 'x'.repeat(10 * 1024);
    expect((await peer.requestUnchecked('echo', { big })).result).toEqual({ echo: { big } });
    peer.writeRaw('nope\n');
    await peer.waitFor((m) => m.error?.code === -32700);
    expect((await peer.requestUnchecked('echo', { text: 'alive' })).result).toEqual({ echo: { text: 'alive' } });
    expect(connection.closed).toBe(false);
  });

  it('[F11 transport-limits] a frame over the probation limit closes the connection', async () => {
    const { connection, peer } = probation();
    const closed = closedOf(connection);
    peer.writeRaw(`{"jsonrpc":"2.0","id":1,"method":"echo","params":"${'x'.repeat(2048)}"}\n`);
    expect((await peer.waitFor((m) => m.error !== undefined)).error!.code).toBe(-32011);
    await closed;
  });
});
