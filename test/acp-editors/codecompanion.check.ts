import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, toolResultText } from '../support/chat-tool-call-sse.js';
import { bytesThrough, sseFrameEnds } from '../support/sse-frame-ends.js';
import { docSnippet, editorVersion, pluginPath, startAcpEditorBed, type AcpEditorBed } from './acp-editor-bed.js';

/*
 * docs/editors.md "Neovim: CodeCompanion.nvim" in a real Neovim: the doc's Lua block is
 * written to a file and loaded by codecompanion-scenario.lua, which opens a chat, types
 * prompts and presses the chat buffer's own keys (<CR> to send, the approval prompt's
 * accept key, `q` to stop). The model is the bed's loopback replay server; the scenario
 * records every JSON-RPC message CodeCompanion exchanged with `agentd acp`.
 */

const SCENARIO = fileURLToPath(new URL('./codecompanion-scenario.lua', import.meta.url));
const PLUGIN = pluginPath('codecompanion.nvim', 'olimorris/codecompanion.nvim');
const PLENARY = pluginPath('plenary.nvim', 'nvim-lua/plenary.nvim');
const COMMIT = execFileSync('git', ['-C', PLUGIN, 'log', '-1', '--format=%h'], { encoding: 'utf8' }).trim();


interface RpcMessage {
  id?: number;
  method?: string;
  params?: { update?: { sessionUpdate?: string; content?: { text?: string } }; [key: string]: unknown };
  result?: Record<string, any> | null;
}
type RpcEntry = { dir: 'sent' | 'received'; msg: RpcMessage };

describe(`CodeCompanion.nvim ${COMMIT} with the docs/editors.md configuration`, () => {
  let bed: AcpEditorBed;

  beforeAll(async () => {
    console.log(`CodeCompanion.nvim ${COMMIT}, ${await editorVersion('nvim')}`);
    bed = await startAcpEditorBed();
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('chats, answers a permission question, stops a turn and prompts again through agentd acp', async () => {
    const { cd } = bed;
    // 1. The model writes hello.txt (permission asked), then says so in three chunks,
    //    one SSE frame per write, 40 ms apart, so they reach the chat separately.
    cd.replay.enqueue({ body: chatToolCallSse([{ id: 'call_write', name: 'write', arguments: { path: 'hello.txt', content: 'hi from codecompanion\n' } }]) });
    const wrote = chatCompletionSse(['Wrote ', 'hello.txt', ' for you.']);
    cd.replay.enqueue({ body: wrote, chunking: { splitAt: sseFrameEnds(wrote) }, delayMs: 40 });
    // 2. A reply that stalls after its first chunk: the turn runs until stopped.
    const stalled = chatCompletionSse(['Working on it', ' and more']);
    cd.replay.enqueue({ body: stalled, stallAfterBytes: bytesThrough(stalled, 'Working on it') });
    // 3. The next prompt's answer.
    cd.replay.enqueue({ body: chatCompletionSse(['Bye', '.']) });

    const config = join(bed.scratch, 'codecompanion-config.lua');
    writeFileSync(config, docSnippet('Neovim: CodeCompanion.nvim', 'lua'));
    const out = join(bed.scratch, 'summary.json');
    const run = await bed.runEditor('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${SCENARIO}`], {
      AGENTD_CC_PLUGIN: PLUGIN,
      AGENTD_CC_PLENARY: PLENARY,
      AGENTD_CC_CONFIG: config,
      AGENTD_CC_OUT: out,
    });
    // No summary: Neovim died or hung before the scenario could write one.
    expect(existsSync(out), `no summary; Neovim exited ${run.code}: ${run.stderr}${run.stdout}`).toBe(true);
    const summary = JSON.parse(readFileSync(out, 'utf8'));
    expect(summary.error, run.stderr + run.stdout).toBeUndefined();
    expect(run.code, run.stderr).toBe(0);

    const rpc: RpcEntry[] = summary.rpc;
    const sent = (method: string) => rpc.filter((e) => e.dir === 'sent' && e.msg.method === method).map((e) => e.msg);
    const position = (pred: (e: RpcEntry) => boolean) => rpc.findIndex(pred);
    const bodies = cd.replay.requests.map((r) => r.body as { messages: Array<{ role: string; content: unknown }> });
    expect(bodies).toHaveLength(4);

    // 1. CodeCompanion spawned `agentd acp` (with no environment of its own), initialized
    //    without authenticating (agentd offers no authMethods) and opened a session in
    //    Neovim's working directory, the workspace.
    expect(summary.adapter).toEqual({ name: 'agentd', type: 'acp', command: ['agentd', 'acp'] });
    expect(Object.keys(summary.agentEnv)).toEqual([]);
    expect(sent('initialize')).toHaveLength(1);
    expect(rpc.find((e) => e.dir === 'received' && e.msg.id === 1)?.msg.result?.agentInfo?.name).toBe('agentd');
    expect(sent('authenticate')).toEqual([]);
    expect(sent('session/new')).toEqual([expect.objectContaining({ params: { cwd: realpathSync(cd.workspace), mcpServers: [] } })]);
    expect(sent('session/prompt').map((m) => m.params?.prompt)).toEqual([
      [{ type: 'text', text: 'Create hello.txt' }],
      [{ type: 'text', text: 'Start a long job' }],
      // CodeCompanion sends a stopped prompt again with the next one.
      [
        { type: 'text', text: 'Start a long job' },
        { type: 'text', text: 'Now say bye' },
      ],
    ]);

    // 2. The reply came as three agent_message_chunk updates; the chat line grew with each.
    const chunks = rpc.filter((e) => e.msg.params?.update?.sessionUpdate === 'agent_message_chunk').map((e) => e.msg.params!.update!.content!.text);
    expect(chunks.slice(0, 3)).toEqual(['Wrote ', 'hello.txt', ' for you.']);
    expect(summary.streamed).toEqual(['Wrote ', 'Wrote hello.txt', 'Wrote hello.txt for you.']);

    // 3. The permission question became the chat's approval prompt; its accept key (g2)
    //    answered allow_once, the file was written and the result went back to the model.
    const asked = rpc.find((e) => e.msg.method === 'session/request_permission')!.msg;
    expect(asked.params?.toolCall).toMatchObject({ toolCallId: 'call_write', title: 'Write hello.txt', kind: 'edit' });
    expect(rpc.find((e) => e.dir === 'sent' && e.msg.id === asked.id && e.msg.result)?.msg.result).toEqual({
      outcome: { outcome: 'selected', optionId: 'allow_once' },
    });
    // The question carried the proposed change (ACP diff content), so the prompt shows it and offers View.
    expect(asked.params?.toolCall).toMatchObject({
      content: [{ type: 'diff', path: join(realpathSync(cd.workspace), 'hello.txt'), oldText: null, newText: 'hi from codecompanion\n' }],
    });
    const approval = summary.stages.approval.lines.slice(summary.stages.approval.lines.lastIndexOf('---'));
    expect(approval).toEqual([
      '---',
      expect.stringMatching(/^\*\*Proposed edits for `\S*hello\.txt`:\*\*$/),
      '',
      '`````diff',
      '@@ -0,0 +1 @@',
      '+hi from codecompanion',
      '`````',
      '',
      'Please select an option:',
      '- `gv` - View',
      '- `g2` - Accept',
      '- `g1` - Always accept',
      '- `g3` - Reject',
      '- `g4` - Cancel',
      '',
      '',
    ]);
    expect(readFileSync(join(cd.workspace, 'hello.txt'), 'utf8')).toBe('hi from codecompanion\n');
    expect(toolResultText(bodies[1], 'call_write')).toMatch(/^Created hello.txt \(1 lines\)/);

    // 4. `q` sent session/cancel while the reply stalled; agentd ended that prompt with
    //    stopReason "cancelled", kept the partial reply, and took the next prompt.
    const cancelAt = position((e) => e.dir === 'sent' && e.msg.method === 'session/cancel');
    expect(cancelAt).toBeGreaterThan(position((e) => e.msg.params?.update?.content?.text === 'Working on it'));
    const promptIds = sent('session/prompt').map((m) => m.id);
    const endedAt = position((e) => e.dir === 'received' && e.msg.id === promptIds[1] && e.msg.result?.stopReason === 'cancelled');
    expect(endedAt).toBeGreaterThan(cancelAt);
    expect(summary.events).toContainEqual({ event: 'CodeCompanionChatStopped' });
    expect(summary.events).toContainEqual({ event: 'CodeCompanionRequestFinished', status: 'cancelled' });
    // The partial reply stays and the chat is handed back for the next prompt.
    expect(summary.stages.stopped.lines.slice(-9)).toEqual(['Start a long job', '', '## CodeCompanion (agentd)', '', 'Working on it', '', '## Me', '', '']);
    expect(bodies[3]!.messages.slice(-3)).toEqual([
      { role: 'user', content: 'Start a long job' },
      { role: 'assistant', content: 'Working on it' },
      { role: 'user', content: 'Start a long job\n\nNow say bye' },
    ]);

    // The chat buffer, whole, with the tool call's line marked completed.
    expect(summary.stages.last.lines).toEqual([
      '## Me',
      '',
      'Create hello.txt',
      '',
      '## CodeCompanion (agentd)',
      '',
      ...approval.slice(0, -1),
      expect.stringMatching(/You selected: Accept$/),
      '',
      '---',
      '',
      'Edit: hello.txt',
      '',
      'Wrote hello.txt for you.',
      '',
      '## Me',
      '',
      'Start a long job',
      '',
      '## CodeCompanion (agentd)',
      '',
      'Working on it',
      '',
      '## Me',
      '',
      'Now say bye',
      '',
      '## CodeCompanion (agentd)',
      '',
      'Bye.',
      '',
      '## Me',
      '',
      '',
    ]);
    const toolLine = summary.stages.last.lines.indexOf('Edit: hello.txt') + 1;
    expect(summary.stages.last.icons).toContainEqual({ line: toolLine, hl: 'CodeCompanionChatToolSuccessIcon' });
  });
});
