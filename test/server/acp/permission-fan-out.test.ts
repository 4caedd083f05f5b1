import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { chatToolCallSse, toolResultText } from '../../support/chat-tool-call-sse.js';
import { daemonEnv, makeHome } from '../../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';
import type { RpcPeer, WireMessage } from '../../support/rpc-peer.js';

/** A promise with its resolve function, for an answer the test gives later. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const selected = (optionId: string) => ({ outcome: { outcome: 'selected', optionId } });
const isQuestion = (m: WireMessage): boolean => m.method === 'session/request_permission';
const isResolved = (toolCallId: string) => (m: WireMessage): boolean =>
  m.method === 'agentd/event' && m.params.event.type === 'permission_resolved' && m.params.event.toolCallId === toolCallId;

describe('a permission question is asked of every follower at once', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemon: InProcessDaemon;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    daemon = startInProcessDaemon(daemonEnv(home.home), process.cwd());
  });

  afterEach(async () => {
    await daemon.close();
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  /** An initialized client that opted in to events, following `sessionId` (or the first client, which creates it). */
  async function follower(peer: RpcPeer, sessionId?: string): Promise<string> {
    await peer.call('initialize', { protocolVersion: 1, clientCapabilities: {}, _meta: { agentd: { events: true } } });
    if (sessionId === undefined) return (await peer.call('session/new', { cwd: workspace, mcpServers: [] })).sessionId;
    await peer.call('session/resume', { sessionId, cwd: workspace });
    return sessionId;
  }

  /** The model writes `file` once, then says done. */
  function scriptWrite(file: string): void {
    replay.enqueue({ body: chatToolCallSse([{ id: `call_${file}`, name: 'write', arguments: { path: file, content: 'x' } }]) });
    replay.enqueue({ body: chatCompletionSse(['done']) });
  }

  it('two clients: both asked before either answers; the first answer wins, the other request is cancelled, its late answer ignored, both told', async () => {
    const editor = daemon.peer;
    const page = daemon.connect();
    const sessionId = await follower(editor);
    await follower(page, sessionId);
    const editorAnswer = deferred<unknown>();
    const pageAnswer = deferred<unknown>();
    editor.onRequest('session/request_permission', () => editorAnswer.promise);
    page.onRequest('session/request_permission', () => pageAnswer.promise);
    scriptWrite('a.txt');
    const prompt = editor.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write a.txt' }] });

    // Both questions are out while neither client has answered.
    const [askedEditor, askedPage] = await Promise.all([editor.waitFor(isQuestion), page.waitFor(isQuestion)]);
    expect(askedPage.params).toEqual(askedEditor.params);
    pageAnswer.resolve(selected('allow_once'));

    const cancel = await editor.waitFor((m) => m.method === '$/cancel_request' && m.params.requestId === askedEditor.id);
    expect(cancel.params).toEqual({ requestId: askedEditor.id });
    for (const peer of [editor, page]) {
      const resolved = await peer.waitFor(isResolved('call_a.txt'));
      expect(resolved.params).toEqual({ sessionId, event: { type: 'permission_resolved', toolCallId: 'call_a.txt', outcome: 'allow_once' } });
    }
    // The editor answers after all: it is ignored, the write ran on the page's answer.
    editorAnswer.resolve(selected('reject_once'));
    expect((await prompt).stopReason).toBe('end_turn');
    expect(existsSync(join(workspace, 'a.txt'))).toBe(true);
    expect(toolResultText(replay.requests[1]!.body, 'call_a.txt')).not.toMatch(/denied|rejected/i);
    expect(page.received.filter(isQuestion)).toHaveLength(1);
    expect(page.received.filter((m) => m.method === '$/cancel_request')).toHaveLength(0);
  });

  it('three clients with an ACP SDK client among them: an option not offered is ignored, the SDK client\'s answer wins; then it is the one cancelled', async () => {
    const first = daemon.peer;
    const second = daemon.connect();
    const sessionId = await follower(first);
    await follower(second, sessionId);
    // The first client answers at once with an option it was not offered; the second never answers by itself.
    first.onRequest('session/request_permission', () => selected('allow_everything'));
    const secondAnswer = deferred<unknown>();
    second.onRequest('session/request_permission', () => secondAnswer.promise);

    const { toDaemon, fromDaemon } = daemon.connectStreams();
    const stream = acp.ndJsonStream(Writable.toWeb(toDaemon) as WritableStream<Uint8Array>, Readable.toWeb(fromDaemon) as ReadableStream<Uint8Array>);
    const sdkAsked: string[] = [];
    let sdkCancelled = 0;
    let sdkRelease = deferred<void>();
    await acp
      .client({ name: 'acp-sdk-follower' })
      .onNotification('session/update', () => undefined)
      .onRequest('session/request_permission', async ({ params, signal }) => {
        sdkAsked.push(params.toolCall.toolCallId);
        const aborted = new Promise<'aborted'>((resolve) => signal.addEventListener('abort', () => resolve('aborted'), { once: true }));
        if ((await Promise.race([sdkRelease.promise, aborted])) === 'aborted') {
          sdkCancelled++;
          return { outcome: { outcome: 'cancelled' } };
        }
        return { outcome: { outcome: 'selected', optionId: 'allow_once' } };
      })
      .connectWith(stream, async (ctx) => {
        await ctx.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
        await ctx.request('session/resume', { sessionId, cwd: workspace });

        scriptWrite('b.txt');
        const prompt = first.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write b.txt' }] });
        await second.waitFor(isQuestion);
        while (!first.sentLines.some((line) => line.includes('allow_everything'))) await new Promise((resolve) => setImmediate(resolve));
        // The invalid answer settled nothing: the SDK client answers now and wins.
        sdkRelease.resolve();
        expect((await prompt).stopReason).toBe('end_turn');
        expect(existsSync(join(workspace, 'b.txt'))).toBe(true);
        const askedSecond = second.received.find(isQuestion)!;
        await second.waitFor((m) => m.method === '$/cancel_request' && m.params.requestId === askedSecond.id);
        for (const peer of [first, second]) {
          expect((await peer.waitFor(isResolved('call_b.txt'))).params.event.outcome).toBe('allow_once');
        }

        // Next question: the second client answers first, and the SDK client's request is cancelled.
        sdkRelease = deferred<void>();
        const secondAgain = deferred<unknown>();
        second.onRequest('session/request_permission', () => secondAgain.promise);
        scriptWrite('c.txt');
        const next = first.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write c.txt' }] });
        await second.waitFor((m) => isQuestion(m) && m.params.toolCall.toolCallId === 'call_c.txt');
        while (!sdkAsked.includes('call_c.txt')) await new Promise((resolve) => setImmediate(resolve));
        secondAgain.resolve(selected('reject_once'));
        expect((await next).stopReason).toBe('end_turn');
        expect(existsSync(join(workspace, 'c.txt'))).toBe(false);
        while (sdkCancelled === 0) await new Promise((resolve) => setImmediate(resolve));
        expect((await first.waitFor(isResolved('call_c.txt'))).params.event.outcome).toBe('reject_once');
      });
    expect(sdkAsked).toEqual(['call_b.txt', 'call_c.txt']);
    expect(sdkCancelled).toBe(1);
    secondAnswer.resolve(selected('reject_once'));
  });

  it('with no valid answer from anyone, the refusal names what the first client sent; with nobody following, the mode decides', async () => {
    const first = daemon.peer;
    const second = daemon.connect();
    const sessionId = await follower(first);
    await follower(second, sessionId);
    first.onRequest('session/request_permission', () => selected('allow_forever'));
    // The second client cannot answer at all.
    second.onRequest('session/request_permission', () => Promise.reject(new Error('no permission UI here')));
    scriptWrite('d.txt');
    await first.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write d.txt' }] });
    expect(existsSync(join(workspace, 'd.txt'))).toBe(false);
    const result = toolResultText(replay.requests[1]!.body, 'call_d.txt');
    expect(result).toMatch(/allow_forever/);
    // Nobody saw it settled by an answer.
    expect(first.received.filter(isResolved('call_d.txt'))).toEqual([]);
  });

  it('a turn cancelled while the question is open cancels every request and tells every follower', async () => {
    const editor = daemon.peer;
    const page = daemon.connect();
    const sessionId = await follower(editor);
    await follower(page, sessionId);
    editor.onRequest('session/request_permission', () => new Promise(() => undefined));
    page.onRequest('session/request_permission', () => new Promise(() => undefined));
    scriptWrite('e.txt');
    const prompt = editor.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write e.txt' }] });
    const [askedEditor, askedPage] = await Promise.all([editor.waitFor(isQuestion), page.waitFor(isQuestion)]);
    page.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    await editor.waitFor((m) => m.method === '$/cancel_request' && m.params.requestId === askedEditor.id);
    await page.waitFor((m) => m.method === '$/cancel_request' && m.params.requestId === askedPage.id);
    for (const peer of [editor, page]) expect((await peer.waitFor(isResolved('call_e.txt'))).params.event.outcome).toBe('cancelled');
    expect(existsSync(join(workspace, 'e.txt'))).toBe(false);
  });
});
