import { PassThrough } from 'node:stream';
import { DaemonPeer } from '../../../src/server/wire/daemon-peer.js';
import { JsonRpcConnection } from '../../../src/server/wire/json-rpc-connection.js';
import { RpcPeer, type WireMessage } from '../../support/rpc-peer.js';

/**
 * A real daemon-side JSON-RPC connection and its typed DaemonPeer (the RemotePeer client
 * tools and hooks call) wired to a test client that records what it receives and answers
 * by hand.
 */
export function peerPair(label = 'test#1'): { connection: DaemonPeer; client: RpcPeer; close(): void } {
  const toDaemon = new PassThrough();
  const fromDaemon = new PassThrough();
  const connection = new JsonRpcConnection(toDaemon, fromDaemon, { label, maxFrameBytes: 1024 * 1024 });
  connection.setHandler({ request: () => Promise.resolve(null), notification: () => undefined });
  const client = new RpcPeer(fromDaemon, toDaemon);
  return {
    connection: new DaemonPeer(connection),
    client,
    // The client hangs up: the daemon side sees its input end.
    close: () => toDaemon.end(),
  };
}

const answered = new WeakMap<RpcPeer, Set<string | number>>();

/** Waits for the daemon's first unanswered request of `method` and answers it with `result`. */
export async function answerNext(client: RpcPeer, method: string, result: unknown): Promise<WireMessage> {
  const done = answered.get(client) ?? new Set<string | number>();
  answered.set(client, done);
  const request = await client.waitFor((m) => m.method === method && m.id != null && !done.has(m.id), 5_000, method);
  done.add(request.id!);
  client.send({ jsonrpc: '2.0', id: request.id!, result });
  return request;
}
