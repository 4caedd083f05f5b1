import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createClientAsker } from '../../../src/server/acp/ask-client-permission.js';
import { ClientConnection } from '../../../src/server/wire/client-connection.js';
import { JsonRpcConnection } from '../../../src/server/wire/json-rpc-connection.js';
import { RpcPeer } from '../../support/rpc-peer.js';
import type { Session } from '../../../src/session/session.js';

/** A daemon-side client connection, attached to `sessionId`, with a test client that answers by hand. */
function attachedClient(id: string, sessionId: string): { connection: ClientConnection; client: RpcPeer } {
  const toDaemon = new PassThrough();
  const fromDaemon = new PassThrough();
  const rpc = new JsonRpcConnection(toDaemon, fromDaemon, { label: id, maxFrameBytes: 1024 * 1024 });
  rpc.setHandler({ request: () => Promise.resolve(null), notification: () => undefined });
  const connection = new ClientConnection(rpc, id, { transport: 'memory', requireToken: false });
  connection.initialized = true;
  // Only the key matters to the asker; the session object is never touched.
  connection.attached.set(sessionId, { session: {} as Session, unsubscribe: () => undefined });
  return { connection, client: new RpcPeer(fromDaemon, toDaemon) };
}

const question = { sessionId: 's1', toolCallId: 'call_1', title: 'bash: rm -rf build', kind: 'execute' as const, rawInput: { command: 'rm -rf build' } };

describe('permission answers are validated against the ACP result schema', () => {
  it.each([
    ['an optionId that is no string', { outcome: { outcome: 'selected', optionId: 7 } }],
    ['no outcome at all', { decision: 'allow' }],
    ['an outcome ACP does not define', { outcome: { outcome: 'approved', optionId: 'allow_once' } }],
  ])('a client answering with %s is not obeyed; another client\'s answer is taken', async (_what, garbage) => {
    const first = attachedClient('first', 's1');
    const second = attachedClient('second', 's1');
    const asker = createClientAsker(new Set([first.connection, second.connection]), () => 'first');
    const answer = asker(question, new AbortController().signal);

    const asked = await first.client.waitFor((m) => m.method === 'session/request_permission', 5_000, 'first question');
    first.client.send({ jsonrpc: '2.0', id: asked.id!, result: garbage });
    const askedAgain = await second.client.waitFor((m) => m.method === 'session/request_permission', 5_000, 'second question');
    second.client.send({ jsonrpc: '2.0', id: askedAgain.id!, result: { outcome: { outcome: 'selected', optionId: 'reject_once' } } });

    expect(await answer).toBe('reject_once');
  });

  it('an optionId that was not offered is not obeyed, and with nobody else to ask the answer says what was sent', async () => {
    const only = attachedClient('nvim', 's1');
    const asker = createClientAsker(new Set([only.connection]), () => 'nvim');
    const answer = asker(question, new AbortController().signal);
    const asked = await only.client.waitFor((m) => m.method === 'session/request_permission', 5_000, 'question');
    only.client.send({ jsonrpc: '2.0', id: asked.id!, result: { outcome: { outcome: 'selected', optionId: 'allow_everything' } } });
    expect(await answer).toEqual({
      invalidAnswer: 'client nvim answered with optionId "allow_everything", which is not one of the options offered (allow_once, allow_always, reject_once, reject_always)',
    });
  });

  it('the question itself is the typed ACP request: tool call, kind and options', async () => {
    const only = attachedClient('only', 's1');
    const asker = createClientAsker(new Set([only.connection]), () => 'only');
    const answer = asker(question, new AbortController().signal);
    const asked = await only.client.waitFor((m) => m.method === 'session/request_permission', 5_000, 'question');
    expect(asked.params).toMatchObject({
      sessionId: 's1',
      toolCall: { toolCallId: 'call_1', title: 'bash: rm -rf build', kind: 'execute', status: 'pending', rawInput: { command: 'rm -rf build' } },
      options: expect.arrayContaining([expect.objectContaining({ optionId: 'allow_once', kind: 'allow_once' })]),
    });
    only.client.send({ jsonrpc: '2.0', id: asked.id!, result: { outcome: { outcome: 'cancelled' } } });
    expect(await answer).toBe('cancelled');
  });
});
