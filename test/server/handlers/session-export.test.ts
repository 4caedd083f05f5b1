import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { chatToolCallSse } from '../../support/chat-tool-call-sse.js';
import { daemonEnv, makeHome } from '../../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

describe('session/export', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemon: InProcessDaemon;
  let sessionId: string;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    // Longer than the 20 lines `agentd sessions show` keeps of a tool result: an export keeps all.
    writeFileSync(join(workspace, 'notes.txt'), Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n'));
    daemon = startInProcessDaemon(daemonEnv(home.home), process.cwd());
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_read', name: 'read', arguments: { path: 'notes.txt' } }]) });
    replay.enqueue({ body: chatCompletionSse(['The notes have ', 'thirty lines.']) });
    sessionId = (await daemon.peer.call('session/new', { cwd: workspace, mcpServers: [] })).sessionId;
    await daemon.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Read the notes' }] });
    await daemon.peer.call('session/close', { sessionId });
  });

  afterEach(async () => {
    await daemon.close();
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('renders the Markdown transcript with every tool result whole, without loading the session', async () => {
    const exported = await daemon.peer.call('session/export', { sessionId, format: 'markdown' });
    expect(exported.fileName).toBe(`agentd-session-${sessionId}.md`);
    expect(exported.mimeType).toBe('text/markdown; charset=utf-8');
    const { content } = exported;
    expect(content.startsWith('# Read the notes\n')).toBe(true);
    expect(content).toContain(`- id: \`${sessionId}\``);
    expect(content).toContain(`- directory: \`${workspace}\``);
    expect(content).toContain('## User\n\nRead the notes');
    expect(content).toContain('**Tool call** `read` (`call_read`)');
    expect(content).toContain('line 30');
    expect(content).not.toContain('more lines');
    expect(content).toContain('## Assistant (local/e2e-model)\n\nThe notes have thirty lines.');
    expect((await daemon.context()).sessions.get(sessionId)).toBeUndefined();
    // Nothing was replayed to the asking client.
    expect(daemon.peer.received.filter((m) => m.method === 'session/update' && m.params?.update?.sessionUpdate === 'user_message_chunk')).toEqual([]);
  });

  it('writes the session as stored as JSON: its record, turns and messages', async () => {
    const exported = await daemon.peer.call('session/export', { sessionId, format: 'json' });
    expect(exported.fileName).toBe(`agentd-session-${sessionId}.json`);
    expect(exported.mimeType).toBe('application/json');
    const parsed = JSON.parse(exported.content);
    const { sessions } = await daemon.context();
    expect(parsed.session).toMatchObject({ id: sessionId, cwd: workspace, title: 'Read the notes' });
    expect(parsed.turns).toEqual(JSON.parse(JSON.stringify(await sessions.turns(sessionId))));
    expect(parsed.messages).toEqual(JSON.parse(JSON.stringify(await sessions.messages(sessionId))));
    expect(parsed.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('answers ResourceNotFound for an unknown session and InvalidParams for another format', async () => {
    const unknown = await daemon.peer.request('session/export', { sessionId: 'ses_missing', format: 'json' });
    expect(unknown.error!.code).toBe(-32002);
    const pdf = await daemon.peer.requestUnchecked('session/export', { sessionId, format: 'pdf' });
    expect(pdf.error).toMatchObject({ code: -32602, message: expect.stringMatching(/format/) });
  });
});
