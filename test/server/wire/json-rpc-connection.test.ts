import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { JsonRpcConnection, type InboundHandler } from '../../../src/server/wire/json-rpc-connection.js';
import { RpcError } from '../../../src/server/wire/rpc-error.js';
import { RpcPeer } from '../../support/rpc-peer.js';

function pair(handler: InboundHandler) {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const connection = new JsonRpcConnection(toServer, fromServer, { label: 'test', maxFrameBytes: 1024 });
  connection.setHandler(handler);
  return { connection, peer: new RpcPeer(fromServer, toServer) };
}

describe('JsonRpcConnection', () => {
  it('answers requests, reports handler errors, and rejects bad envelopes without closing', async () => {
    const { peer } = pair({
      async request(method, params) {
        if (method === 'fail') throw RpcError.notFound('no such thing');
        if (method === 'crash') throw new Error('boom');
        return { echo: params };
      },
      notification() {},
    });
    expect((await peer.requestUnchecked('echo', { a: 1 })).result).toEqual({ echo: { a: 1 } });
    expect((await peer.requestUnchecked('fail', {})).error).toEqual({ code: -32002, message: 'no such thing' });
    expect((await peer.requestUnchecked('crash', {})).error).toMatchObject({ code: -32603, message: 'internal error: boom' });

    peer.writeRaw('[{"jsonrpc":"2.0","id":1,"method":"x"}]\n');
    expect((await peer.waitFor((m) => /batches/.test(m.error?.message ?? ''))).error!.code).toBe(-32600);
    peer.writeRaw('{"jsonrpc":"1.0","id":5,"method":"x"}\n');
    expect((await peer.waitFor((m) => m.id === 5)).error!.code).toBe(-32600);
    peer.writeRaw('{"jsonrpc":"2.0","id":{"x":1},"method":"x"}\n');
    expect((await peer.waitFor((m) => /"id" must be/.test(m.error?.message ?? ''))).error!.code).toBe(-32600);
    expect((await peer.requestUnchecked('echo', { text: 'still-alive' })).result).toEqual({ echo: { text: 'still-alive' } });
  });

  it('honours both $/cancel_request (ACP) and $/cancelRequest (LSP)', async () => {
    const { peer } = pair({
      request: (_method, _params, signal) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
      notification() {},
    });
    const lastId = (): number => JSON.parse(peer.sentLines.at(-1)!).id;
    const first = peer.requestUnchecked('slow', {});
    peer.notify('$/cancel_request', { requestId: lastId() });
    expect((await first).error!.code).toBe(-32800);
    const second = peer.requestUnchecked('slow', {});
    peer.notify('$/cancelRequest', { id: lastId() });
    expect((await second).error!.code).toBe(-32800);
  });

  it('ignores a cancel that names no request id, and the connection goes on', async () => {
    const { peer } = pair({ request: async (_method, params) => params, notification() {} });
    peer.writeRaw('{"jsonrpc":"2.0","method":"$/cancel_request","params":{"sessionId":5}}\n');
    peer.writeRaw('{"jsonrpc":"2.0","method":"$/cancel_request"}\n');
    peer.writeRaw('{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{"x":1}}}\n');
    peer.writeRaw('{"jsonrpc":"2.0","method":"$/cancelRequest","params":null}\n');
    expect((await peer.requestUnchecked('echo', { still: 'open' })).result).toEqual({ still: 'open' });
    expect(peer.received.filter((m) => m.error !== undefined)).toEqual([]);
  });

  it('sends its own requests and matches the answers; closing fails the pending ones', async () => {
    const { connection, peer } = pair({ request: async () => null, notification() {} });
    const asked = connection.request('session/request_permission', { q: 1 });
    const request = await peer.waitFor((m) => m.method === 'session/request_permission');
    peer.send({ jsonrpc: '2.0', id: request.id!, result: { outcome: { outcome: 'cancelled' } } });
    expect(await asked).toEqual({ outcome: { outcome: 'cancelled' } });

    const failing = connection.request('tools/call', {});
    const call = await peer.waitFor((m) => m.method === 'tools/call');
    peer.send({ jsonrpc: '2.0', id: call.id!, error: { code: -32015, message: 'tool broke' } });
    await expect(failing).rejects.toThrow('tool broke');

    const pending = connection.request('hooks/beforeToolCall', {});
    peer.close();
    await expect(pending).rejects.toThrow(/closed/);
  });

  it('times out an unanswered request and tells the peer to stop', async () => {
    const { connection, peer } = pair({ request: async () => null, notification() {} });
    await expect(connection.request('tools/call', {}, { timeoutMs: 50 })).rejects.toThrow(/no answer .* within 50 ms/);
    const call = await peer.waitFor((m) => m.method === 'tools/call');
    expect((await peer.waitFor((m) => m.method === '$/cancel_request')).params).toEqual({ requestId: call.id });
  });
});
