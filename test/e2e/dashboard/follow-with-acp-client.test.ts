import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { chatToolCallSse } from '../../support/chat-tool-call-sse.js';
import { startDashboardBed, type DashboardBed } from '../../support/dashboard-browser.js';
import { until } from '../../support/daemon-process.js';
import { CHROMIUM, requireProgram } from '../../support/required-program.js';

describe.skipIf(!requireProgram(CHROMIUM))('the dashboard in Chromium beside an ACP client (the official SDK)', () => {
  let bed: DashboardBed;
  beforeAll(async () => {
    bed = await startDashboardBed();
  }, 60_000);
  afterAll(async () => {
    await bed?.close();
  });

  it('follows a session with the ACP client; both are asked the permission question, the page answers it and the ACP client sees it withdrawn', async () => {
    const { page, peer, daemon } = bed;
    const { sessionId } = await peer.call('session/new', { cwd: daemon.workspace, mcpServers: [] });
    const socket = connect(daemon.socketPath);
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const stream = acp.ndJsonStream(Writable.toWeb(socket) as WritableStream<Uint8Array>, Readable.toWeb(socket) as ReadableStream<Uint8Array>);
    const updates: acp.SessionUpdate[] = [];
    const asked: string[] = [];
    let withdrawn = false;

    await acp
      .client({ name: 'acp-follower' })
      .onNotification('session/update', ({ params }) => {
        if (params.sessionId === sessionId) updates.push(params.update);
      })
      .onRequest('session/request_permission', ({ params, signal }) => {
        asked.push(params.toolCall.title ?? '');
        return new Promise<acp.RequestPermissionResponse>((resolve) =>
          signal.addEventListener('abort', () => {
            withdrawn = true;
            resolve({ outcome: { outcome: 'cancelled' } });
          }),
        );
      })
      .connectWith(stream, async (ctx) => {
        await ctx.request('initialize', {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
          clientInfo: { name: 'acp-follower', version: '1.0.0' },
        });
        await ctx.request('session/load', { sessionId, cwd: daemon.workspace, mcpServers: [] });

        await bed.openView('Sessions');
        await page.locator(`tr[data-session-id="${sessionId}"]`).getByRole('link').click();
        await page.getByRole('button', { name: 'Send' }).waitFor();

        daemon.replay.enqueue({ body: chatToolCallSse([{ id: 'call_w', name: 'write', arguments: { path: 'shared.txt', content: 'answered on the page\n' } }]) });
        daemon.replay.enqueue({ body: chatCompletionSse(['Written ', 'for both.']) });
        const turn = peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write shared.txt' }] });

        const question = permissionQuestion(page);
        await question.waitFor();
        await until(() => asked.length === 1, 15_000, 'the ACP client to be asked');
        await peer.waitFor((m) => m.method === 'session/request_permission', 15_000, 'the other client to be asked');
        await bed.screenshot('permission-with-acp-client');
        await question.getByRole('button', { name: 'Allow once' }).click();

        expect((await turn).stopReason).toBe('end_turn');
        await until(() => withdrawn, 15_000, 'the ACP client’s question to be withdrawn');
        expect(readFileSync(join(daemon.workspace, 'shared.txt'), 'utf8')).toBe('answered on the page\n');
        await page.getByRole('log', { name: 'Transcript' }).getByText('Written for both.').waitFor();
        await until(() => agentText(updates) === 'Written for both.', 15_000, 'the ACP client to stream the answer');
        expect(updates.filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'call_w').at(-1)).toMatchObject({ status: 'completed' });
      });
    socket.destroy();
    expect(asked).toHaveLength(1);
    await permissionQuestion(page).waitFor({ state: 'detached' });
    expect(bed.consoleErrors).toEqual([]);
  });
});

const permissionQuestion = (page: DashboardBed['page']) => page.getByRole('group', { name: /^Permission: / });

function agentText(updates: acp.SessionUpdate[]): string {
  return updates
    .filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: 'agent_message_chunk' }> => u.sessionUpdate === 'agent_message_chunk')
    .map((u) => (u.content.type === 'text' ? u.content.text : ''))
    .join('');
}
