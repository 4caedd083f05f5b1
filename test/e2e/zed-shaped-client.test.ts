import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnAcpBridge, type AcpBridgeChild } from '../support/acp-bridge-child.js';
import { validateDaemonWire } from '../support/acp-wire-validator.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, toolResultText } from '../support/chat-tool-call-sse.js';
import { agentdOnPath } from '../support/agentd-on-path.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { readmeCodeBlocks } from '../support/readme-code-blocks.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { bytesThrough, sseFrameEnds } from '../support/sse-frame-ends.js';

/*
 * `agentd acp` driven the way Zed's external-agent client drives it. Zed cannot run here,
 * so every request below carries the params Zed's source sends, and every assertion is on
 * a field Zed's source reads. Read in zed-industries/zed (facts only, no code copied):
 *
 * crates/agent_servers/src/acp.rs @ 0038d2e2cc9ba621c7c759b42a578186abb922a5
 * - initialize: protocolVersion 1; clientCapabilities fs.readTextFile/writeTextFile true,
 *   terminal true, auth.terminal true, session.configOptions.boolean {}, elicitation
 *   form/url {}, _meta {terminal_output: true, "terminal-auth": true}; clientInfo
 *   {name: "zed", version, title: release channel}. A protocolVersion below 1 is fatal;
 *   agentInfo (name, version), authMethods, agentCapabilities are read: loadSession,
 *   promptCapabilities (what the message editor may send), sessionCapabilities
 *   list/delete/resume/close/additionalDirectories (each enables its call).
 * - session/new {cwd, additionalDirectories (only when advertised), mcpServers}: the
 *   project's context servers, stdio {name, command, args, env: [{name, value}]} or
 *   {type: "http", name, url, headers: [{name, value}]}.
 * - config_state: when the answer has configOptions, Zed keeps them and DROPS `modes`;
 *   the settings' default_mode is then never sent, and session/set_mode is never called.
 *   Choices (and default_config_options from settings) go through
 *   session/set_config_option {sessionId, configId, value}; its answer's configOptions
 *   replace Zed's. config_option_update, current_mode_update and session_info_update
 *   are also read.
 * - session/request_permission: the toolCall is upserted into the thread (an unknown id
 *   must carry a full tool call), every option is shown as sent, and the answer is
 *   {outcome: {outcome: "selected", optionId}}. fs/* and terminal/* are served too.
 * - cancel: session/cancel notification; the running prompt should end "cancelled".
 * - session/list {cwd} (updatedAt parsed as RFC 3339); session/close when a thread is
 *   released (if advertised); reopening a thread calls session/load {sessionId, cwd,
 *   mcpServers} when loadSession is true, else session/resume.
 * crates/acp_thread/src/acp_thread.rs: a tool_call_update for an id it never saw fails.
 * crates/acp_thread/src/mention.rs @ 02c0e6816cbb0a655b06ea7fb0a8f6c3587893ac
 * - a file mention's uri is file:///abs/path, a selection's file:///abs/path#L<a>:<b>
 *   (1-based lines), a pasted image's zed:///agent/pasted-image?name=Image.
 * crates/agent_ui (the message editor's mention_to_content_block): with embeddedContext a
 * mention is a `resource` {uri, text} without mimeType, otherwise a `resource_link`
 * {name, uri}; an unresolved mention is always a resource_link; images are `image`
 * {data, mimeType, uri}.
 */

const CRASHY = fileURLToPath(new URL('../fixtures/mcp/crashy-server.mjs', import.meta.url));
// A 1×1 PNG, as Zed pastes it (base64 data).
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const APP = 'export function add(a, b) {\n  return a - b;\n}\n';

/** The README's Zed settings, parsed as printed: this test starts the agent the way they tell Zed to. */
type AgentServer = { type: string; command: string; args: string[] };
const ZED_SETTINGS = readmeCodeBlocks('README.md', '## Connecting an editor', 'json').find((block) => block.includes('"agent_servers"'));
const ZED_AGENT = (JSON.parse(ZED_SETTINGS ?? '{}') as { agent_servers?: Record<string, AgentServer> }).agent_servers?.agentd;

type Notification = acp.SessionNotification['update'];
type Body = { messages: Array<{ role: string; content: unknown }> };

describe('a Zed-shaped ACP client (Zed\'s own params, per its source)', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let bridge: AcpBridgeChild;
  let bin: ReturnType<typeof agentdOnPath>;

  it("starts the agent as the README's Zed settings say: a custom agent server, `agentd acp`", () => {
    expect(ZED_AGENT).toEqual({ type: 'custom', command: 'agentd', args: ['acp'] });
  });

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-zed-'));
    mkdirSync(join(workspace, 'src'));
    writeFileSync(join(workspace, 'src', 'app.ts'), APP);
    writeFileSync(join(workspace, 'notes.md'), '# Notes\n');
    bin = agentdOnPath();
    bridge = spawnAcpBridge(home.home, { command: ZED_AGENT!.command, args: ZED_AGENT!.args, env: { ...daemonEnv(home.home), PATH: bin.path(process.env) } });
  });

  afterEach(async () => {
    await bridge.stop();
    bin.cleanup();
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('initializes, opens a session, takes mentions, edits with a diff question, cancels, lists, closes and loads', async () => {
    const appPath = join(workspace, 'src', 'app.ts');
    // Turn 1: the model reads app.ts, edits it (a permission question), then answers in three frames.
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_read', name: 'read', arguments: { path: 'src/app.ts' } }]) });
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_edit', name: 'edit', arguments: { path: 'src/app.ts', old: 'a - b', new: 'a + b' } }]) });
    const answer = chatCompletionSse(['Fixed ', 'add', ' in app.ts.']);
    replay.enqueue({ body: answer, chunking: { splitAt: sseFrameEnds(answer) }, delayMs: 20 });
    // Turn 2: stalls after its first chunk, until Zed's stop button cancels it.
    const stalled = chatCompletionSse(['Thinking', ' forever']);
    replay.enqueue({ body: stalled, stallAfterBytes: bytesThrough(stalled, 'Thinking') });

    const updates: acp.SessionNotification[] = [];
    const permissions: acp.RequestPermissionRequest[] = [];
    // Zed serves these; agentd works on disk itself, so none should ever come.
    const clientCalls: string[] = [];
    const texts = (from = 0) =>
      updates
        .slice(from)
        .map((n) => n.update)
        .filter((u): u is Extract<Notification, { sessionUpdate: 'agent_message_chunk' }> => u.sessionUpdate === 'agent_message_chunk')
        .map((u) => (u.content.type === 'text' ? u.content.text : ''));

    await acp
      .client({ name: 'zed' })
      .onNotification('session/update', ({ params }) => {
        updates.push(params);
      })
      .onRequest('session/request_permission', ({ params }) => {
        permissions.push(params);
        // The user clicks "Allow" (the allow_once option), as in Zed's permission buttons.
        const allow = params.options.find((o) => o.kind === 'allow_once');
        return { outcome: allow ? { outcome: 'selected', optionId: allow.optionId } : { outcome: 'cancelled' } };
      })
      .onRequest('fs/read_text_file', ({ params }) => {
        clientCalls.push('fs/read_text_file');
        return { content: readFileSync(params.path, 'utf8') };
      })
      .onRequest('fs/write_text_file', ({ params }) => {
        clientCalls.push('fs/write_text_file');
        writeFileSync(params.path, params.content);
        return {};
      })
      .onRequest('terminal/create', () => {
        clientCalls.push('terminal/create');
        throw new Error('not expected');
      })
      .connectWith(bridge.stream, async (ctx) => {
        // --- initialize, exactly Zed's params (client_capabilities_for_agent, beta flag off).
        const init = await ctx.request('initialize', {
          protocolVersion: 1,
          clientCapabilities: {
            fs: { readTextFile: true, writeTextFile: true },
            terminal: true,
            auth: { terminal: true },
            session: { configOptions: { boolean: {} } },
            elicitation: { form: {}, url: {} },
            _meta: { terminal_output: true, 'terminal-auth': true },
          },
          clientInfo: { name: 'zed', version: '0.230.0', title: 'Zed' },
        });
        expect(init.protocolVersion).toBeGreaterThanOrEqual(1);
        expect(init.agentInfo).toMatchObject({ name: 'agentd' });
        expect(init.agentInfo?.version).not.toBe('');
        // No auth methods: Zed shows no login and goes straight to session/new.
        expect(init.authMethods).toEqual([]);
        const caps = init.agentCapabilities!;
        expect(caps.loadSession).toBe(true);
        expect(caps.promptCapabilities).toMatchObject({ image: true, embeddedContext: true });
        expect(caps.sessionCapabilities).toMatchObject({ list: {}, close: {}, resume: {}, delete: {} });

        // --- session/new: one folder (no additionalDirectories), the project's two context servers.
        const created = await ctx.request('session/new', {
          cwd: workspace,
          mcpServers: [
            { name: 'zed-context', command: process.execPath, args: [CRASHY], env: [{ name: 'MCP_START_LOG', value: join(workspace, 'mcp.log') }] },
            { type: 'http', name: 'zed-remote', url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'Authorization', value: 'Bearer zed' }] },
          ],
        });
        const sessionId = created.sessionId;
        expect(sessionId).toMatch(/\S/);
        expect((created._meta as { agentd: { mcpServers: Array<{ name: string }> } }).agentd.mcpServers.map((s) => s.name)).toEqual(
          expect.arrayContaining(['zed-context', 'zed-remote']),
        );
        // Zed keeps configOptions and drops modes, so the mode picker must be a config option.
        const options = created.configOptions!;
        const byCategory = (opts: acp.SessionConfigOption[], category: string) => opts.find((o) => o.category === category);
        expect(byCategory(options, 'model')).toMatchObject({ type: 'select', currentValue: 'local/e2e-model' });
        const modeOption = byCategory(options, 'mode');
        expect(modeOption, 'a category "mode" config option (Zed shows no `modes` when configOptions exist)').toBeDefined();
        expect(modeOption).toMatchObject({ type: 'select', currentValue: created.modes!.currentModeId });
        const modeValues = (modeOption as { options: Array<{ value: string }> }).options.map((o) => o.value);
        expect(modeValues).toEqual(created.modes!.availableModes.map((m) => m.id));
        expect(modeValues).toContain('plan');

        // --- the mode and model pickers, as Zed sends them (also how default_config_options apply).
        const toPlan = await ctx.request('session/set_config_option', { sessionId, configId: modeOption!.id, value: 'plan' });
        expect(byCategory(toPlan.configOptions, 'mode')).toMatchObject({ currentValue: 'plan' });
        const back = await ctx.request('session/set_config_option', { sessionId, configId: modeOption!.id, value: created.modes!.currentModeId });
        expect(byCategory(back.configOptions, 'mode')).toMatchObject({ currentValue: created.modes!.currentModeId });
        const model = await ctx.request('session/set_config_option', { sessionId, configId: 'model', value: 'local/e2e-model' });
        expect(byCategory(model.configOptions, 'model')).toMatchObject({ currentValue: 'local/e2e-model' });

        // --- turn 1: what Zed's message editor sends for "Fix @app.ts <selection> see @notes.md <image>".
        const fileUri = `file://${appPath}`;
        const selectionUri = `file://${appPath}#L2:2`;
        const notesUri = `file://${join(workspace, 'notes.md')}`;
        const done = await ctx.request('session/prompt', {
          sessionId,
          prompt: [
            { type: 'text', text: 'Fix ' },
            { type: 'resource', resource: { uri: fileUri, text: APP } },
            { type: 'text', text: ' where it says ' },
            { type: 'resource', resource: { uri: selectionUri, text: '  return a - b;' } },
            { type: 'text', text: ' see ' },
            { type: 'resource_link', name: 'notes.md', uri: notesUri },
            { type: 'image', data: PNG, mimeType: 'image/png', uri: 'zed:///agent/pasted-image?name=Image' },
          ],
        });
        expect(done.stopReason).toBe('end_turn');

        // Every mention reached the model, in the user message.
        const first = replay.requests[0]!.body as Body;
        const user = JSON.stringify(first.messages.filter((m) => m.role === 'user').at(-1)!.content);
        for (const piece of [fileUri, JSON.stringify(APP).slice(1, -1), selectionUri, 'return a - b;', notesUri, 'notes.md', PNG]) {
          expect(user).toContain(piece);
        }
        expect(toolResultText(replay.requests[1]!.body, 'call_read')).toContain('return a - b;');

        // The edit: tool_call first, then the question carrying the proposed diff, then completion.
        const seen = new Set<string>();
        for (const { update } of updates) {
          if (update.sessionUpdate === 'tool_call') seen.add(update.toolCallId);
          // Zed's thread rejects an update for a tool call it was never told about.
          if (update.sessionUpdate === 'tool_call_update') expect(seen).toContain(update.toolCallId);
        }
        expect(permissions).toHaveLength(1);
        const question = permissions[0]!;
        expect(question.sessionId).toBe(sessionId);
        expect(seen.has(question.toolCall.toolCallId) || Boolean(question.toolCall.title)).toBe(true);
        expect(question.toolCall.content).toEqual([{ type: 'diff', path: appPath, oldText: APP, newText: APP.replace('a - b', 'a + b') }]);
        expect(question.options.map((o) => o.kind)).toEqual(expect.arrayContaining(['allow_once', 'reject_once']));
        const finished = updates
          .map((n) => n.update)
          .filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === question.toolCall.toolCallId)
          .at(-1) as acp.ToolCallUpdate & { sessionUpdate: string };
        expect(finished.status).toBe('completed');
        expect(readFileSync(appPath, 'utf8')).toBe(APP.replace('a - b', 'a + b'));
        // Streamed, not one block: the three frames came as separate chunks.
        expect(texts().length).toBeGreaterThanOrEqual(2);
        expect(texts().join('')).toBe('Fixed add in app.ts.');

        // --- turn 2, stopped mid-stream with Zed's stop button (session/cancel).
        const before = updates.length;
        const slow = ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Explain it slowly' }] });
        await until(() => texts(before).join('').includes('Thinking'));
        await ctx.notify('session/cancel', { sessionId });
        expect((await slow).stopReason).toBe('cancelled');

        // --- the thread history (session/list with the project's folder).
        const listed = await ctx.request('session/list', { cwd: workspace });
        const mine = listed.sessions.find((s) => s.sessionId === sessionId)!;
        expect(mine).toMatchObject({ cwd: workspace });
        expect(Number.isNaN(Date.parse(mine.updatedAt ?? ''))).toBe(false);

        // --- closing the thread, then reopening it from history: session/load replays it.
        await ctx.request('session/close', { sessionId });
        const replayedFrom = updates.length;
        const loaded = await ctx.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
        expect(byCategory(loaded.configOptions!, 'mode')).toMatchObject({ currentValue: created.modes!.currentModeId });
        const replayed = updates.slice(replayedFrom).filter((n) => n.sessionId === sessionId).map((n) => n.update);
        const said = (kind: string) =>
          replayed
            .filter((u) => u.sessionUpdate === kind)
            .map((u) => JSON.stringify((u as { content: unknown }).content))
            .join('');
        expect(said('user_message_chunk')).toContain('Fix ');
        expect(said('agent_message_chunk')).toContain('Fixed ');
        const replayedIds = new Set(replayed.filter((u) => u.sessionUpdate === 'tool_call').map((u) => (u as { toolCallId: string }).toolCallId));
        for (const u of replayed) if (u.sessionUpdate === 'tool_call_update') expect(replayedIds).toContain(u.toolCallId);
      });

    expect(clientCalls).toEqual([]);
    expect(bridge.received.length).toBeGreaterThan(10);
    expect(validateDaemonWire(bridge.sent, bridge.received)).toEqual([]);
  });
});

async function until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
