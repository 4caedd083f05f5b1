import { PassThrough } from 'node:stream';
import { ResponseError } from 'vscode-jsonrpc/node.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../protocol/index.js';
import { JsonRpcPeer, type JsonRpcPeerOptions } from '../../../protocol/wire/json-rpc-peer.js';
import { NdjsonMessageReader } from '../../../protocol/wire/ndjson-message-reader.js';
import { NdjsonMessageWriter } from '../../../protocol/wire/ndjson-message-writer.js';

/** A client peer and a daemon peer joined by two in-memory pipes. */
function pair(clientOptions: JsonRpcPeerOptions = {}, daemonOptions: JsonRpcPeerOptions = {}) {
  const toDaemon = new PassThrough();
  const toClient = new PassThrough();
  const client = new JsonRpcPeer<'client'>(new NdjsonMessageReader(toClient), new NdjsonMessageWriter(toDaemon), { label: 'daemon', ...clientOptions });
  const daemon = new JsonRpcPeer<'daemon'>(new NdjsonMessageReader(toDaemon), new NdjsonMessageWriter(toClient), { label: 'client', ...daemonOptions });
  const closeAll = (): void => {
    client.close();
    daemon.close();
    toDaemon.end();
    toClient.end();
  };
  return { client, daemon, closeAll };
}

const permission = {
  sessionId: 'ses_1',
  toolCall: { toolCallId: 'call_1', title: 'Run ls' },
  options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' as const }],
};

describe('JsonRpcPeer', () => {
  let closeAll: () => void = () => undefined;
  afterEach(() => closeAll());

  it('sends a request of its role and gets the result the other side\'s typed handler returned', async () => {
    const joined = pair();
    closeAll = joined.closeAll;
    joined.client.onRequest('session/request_permission', (params) => ({ outcome: { outcome: 'selected', optionId: params.options[0]!.optionId } }));
    const answer = await joined.daemon.request('session/request_permission', permission);
    expect(answer).toEqual({ outcome: { outcome: 'selected', optionId: 'allow' } });
  });

  it('answers a request nobody handles with MethodNotFound, and a handler\'s throw with the error answer its user words', async () => {
    const joined = pair({}, { toErrorAnswer: (method, error) => ({ code: ErrorCodes.InternalError, message: `${method}: ${(error as Error).message}` }) });
    closeAll = joined.closeAll;
    await expect(joined.daemon.request('session/request_permission', permission)).rejects.toMatchObject({ code: ErrorCodes.MethodNotFound });
    joined.daemon.onAnyRequest(() => {
      throw new Error('boom');
    });
    const failed = joined.client.request('session/list', {});
    await expect(failed).rejects.toBeInstanceOf(ResponseError);
    await expect(failed).rejects.toMatchObject({ code: ErrorCodes.InternalError, message: 'session/list: boom' });
  });

  it('an abort sends $/cancel_request: the handler\'s signal fires and the caller gets the answer, or abortError at once', async () => {
    const joined = pair({}, { abortError: (method) => new Error(`${method} aborted here`) });
    closeAll = joined.closeAll;
    let handlerSignal: AbortSignal | undefined;
    joined.daemon.onAnyRequest((_method, _params, { signal }) => {
      handlerSignal = signal;
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));
    });
    const abort = new AbortController();
    const waiting = joined.client.request('session/list', {}, { signal: abort.signal });
    await expect.poll(() => handlerSignal).toBeDefined();
    abort.abort();
    // Without abortError the promise settles with the other side's answer to the cancel.
    await expect(waiting).rejects.toMatchObject({ code: ErrorCodes.InternalError, message: 'stopped' });
    expect(handlerSignal!.aborted).toBe(true);

    joined.client.onRequest('session/request_permission', (_params, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => resolve({ outcome: { outcome: 'cancelled' } }))));
    const daemonAbort = new AbortController();
    const asked = joined.daemon.request('session/request_permission', permission, { signal: daemonAbort.signal });
    daemonAbort.abort();
    await expect(asked).rejects.toThrow('session/request_permission aborted here');
  });

  it('times out a request, and rejects every waiting request when it closes', async () => {
    const joined = pair({ closedError: (method) => new Error(`${method}: gone`) });
    closeAll = joined.closeAll;
    joined.daemon.onAnyRequest(() => new Promise(() => undefined));
    await expect(joined.client.request('session/list', {}, { timeoutMs: 20 })).rejects.toThrow('session/list got no answer from daemon within 20 ms');
    const waiting = joined.client.request('session/list', {});
    joined.client.close();
    await expect(waiting).rejects.toThrow('session/list: gone');
    await expect(joined.client.request('session/list', {})).rejects.toThrow('session/list: gone');
  });

  it('delivers a notification to every handler of its method until unsubscribed; one request handler per method', async () => {
    const joined = pair();
    closeAll = joined.closeAll;
    const seen: string[] = [];
    const first = joined.client.onNotification('session/update', (params) => seen.push(`a:${params.sessionId}`));
    joined.client.onNotification('session/update', (params) => seen.push(`b:${params.sessionId}`));
    const update = { sessionId: 'ses_1', update: { sessionUpdate: 'agent_message_chunk' as const, content: { type: 'text' as const, text: 'Hi' } } };
    joined.daemon.notify('session/update', update);
    await expect.poll(() => seen).toEqual(['a:ses_1', 'b:ses_1']);
    first();
    joined.daemon.notify('session/update', { ...update, sessionId: 'ses_2' });
    await expect.poll(() => seen).toEqual(['a:ses_1', 'b:ses_1', 'b:ses_2']);

    joined.client.onRequest('session/request_permission', () => ({ outcome: { outcome: 'cancelled' } }));
    const unregister = joined.client.onRequest('session/request_permission', () => ({ outcome: { outcome: 'selected', optionId: 'allow' } }));
    expect(await joined.daemon.request('session/request_permission', permission)).toEqual({ outcome: { outcome: 'selected', optionId: 'allow' } });
    unregister();
    await expect(joined.daemon.request('session/request_permission', permission)).rejects.toMatchObject({ code: ErrorCodes.MethodNotFound });
  });
});
