import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, lastUserText, toolResultText } from '../support/chat-tool-call-sse.js';
import { bytesThrough, sseFrameEnds } from '../support/sse-frame-ends.js';
import { docSnippet, editorVersion, pluginPath, pluginsDir, startAcpEditorBed, type AcpEditorBed } from './acp-editor-bed.js';

/*
 * docs/editors.md's avante.nvim block, run in a real Neovim: :AvanteAsk opens the sidebar,
 * which spawns `agentd acp` and opens a session; the questions are typed into the sidebar's
 * input and sent with its <CR>; the model's write asks permission through
 * avante's inline buttons (answered with <CR> on "Allow once"), a stalled reply is stopped
 * with :AvanteStop, and the next question still gets its answer. The scenario
 * (avante-scenario.lua) reads avante's sidebar buffers; this file asserts on them, on the
 * workspace, on what the model received and on the daemon's record of the turns.
 */

const SCENARIO = fileURLToPath(new URL('./avante-scenario.lua', import.meta.url));
const HEADING = 'Neovim: avante.nvim';

const avante = pluginPath('avante.nvim', 'yetone/avante.nvim');
pluginPath('nui.nvim', 'MunifTanjim/nui.nvim');
pluginPath('plenary.nvim', 'nvim-lua/plenary.nvim');
const commit = execFileSync('git', ['-C', avante, 'log', '-1', '--format=%h'], { encoding: 'utf8' }).trim();
const nvimVersion = await editorVersion('nvim');

let bed: AcpEditorBed;
beforeAll(async () => {
  bed = await startAcpEditorBed();
});
afterAll(async () => {
  await bed?.close();
});

it(`avante.nvim ${commit} in ${nvimVersion}: the documented config prompts, asks permission, stops and goes on`, async () => {
  const { cd } = bed;
  // 1. The model writes hello.txt (a permission question), then says so in three chunks, 300 ms apart.
  cd.replay.enqueue({ body: chatToolCallSse([{ id: 'call_write', name: 'write', arguments: { path: 'hello.txt', content: 'hi from avante\n' } }]) });
  const wrote = chatCompletionSse(['Wrote ', 'hello.txt', ' for you.']);
  cd.replay.enqueue({ body: wrote, chunking: { splitAt: sseFrameEnds(wrote) }, delayMs: 300 });
  // 2. A reply that stalls after its first words, until the turn is stopped.
  const stalled = chatCompletionSse(['Working on it', ' and more']);
  cd.replay.enqueue({ body: stalled, stallAfterBytes: bytesThrough(stalled, 'Working on it') });
  // 3. The answer after the stop.
  cd.replay.enqueue({ body: chatCompletionSse(['Bye.']) });

  const config = join(bed.scratch, 'avante-config.lua');
  writeFileSync(config, docSnippet(HEADING, 'lua'));
  const out = join(bed.scratch, 'summary.json');
  const run = await bed.runEditor('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${SCENARIO}`], {
    AVANTE_PLUGINS: pluginsDir(),
    AVANTE_CONFIG: config,
    AVANTE_OUT: out,
  });
  const summary = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
  expect(summary.error, `the scenario failed; avante said ${JSON.stringify(summary.notices)}`).toBeUndefined();
  expect(run.code, run.stderr + run.stdout).toBe(0);
  // Nothing went wrong that avante would tell the user about.
  expect(summary.notices).toEqual([]);
  const ws = cd.workspace;

  // The one session avante opened when the sidebar did, in the workspace, took every
  // question; its turns ended done, cancelled (session/cancel), done.
  expect(summary.sessionId).toBe(summary.connectedSession);
  const db = new Database(join(cd.home, 'data', 'agentd.db'), { readonly: true, fileMustExist: true });
  try {
    expect(db.prepare('SELECT id, cwd FROM sessions').all()).toEqual([{ id: summary.sessionId, cwd: ws }]);
    const turns = db.prepare('SELECT status FROM turns WHERE session_id = ? ORDER BY started_at').all(summary.sessionId) as Array<{ status: string }>;
    expect(turns.map((t) => t.status)).toEqual(['end_turn', 'cancelled', 'end_turn']);
  } finally {
    db.close();
  }

  // The permission question came to avante's inline buttons, "Allow once" first (focused).
  expect(summary.buttons).toMatch(/^Waiting for Confirmation\.\.\. +\S* ?Allow once /);
  expect(summary.buttons).toContain('Reject');
  expect(summary.waiting).toContain('╭─  Write hello.txt("hello.txt")  generating');
  // "Allow once" let the write run: the file is there and the tool result reached the model.
  expect(readFileSync(join(ws, 'hello.txt'), 'utf8')).toBe('hi from avante\n');
  const bodies = cd.replay.requests.map((r) => r.body);
  expect(bodies).toHaveLength(4);
  expect(toolResultText(bodies[1], 'call_write')).toMatch(/^Created hello.txt \(1 lines\)/);

  // The reply streamed in: the sidebar showed it growing, then whole.
  expect(summary.streamed.Wrote).toEqual(['Wrote ', 'Wrote hello.txt', 'Wrote hello.txt for you.']);
  expect(summary.first.state).toBe('succeeded');

  // The stop: avante says so, and the next question got its answer.
  expect(summary.stopped.state).toBe('cancelled');
  expect(lastUserText(bodies[2])).toContain('Start a long job');
  expect(lastUserText(bodies[3])).toContain('Say bye');
  // The same conversation went on: the stopped reply's words are in it, before the new question.
  expect((bodies[3] as { messages: unknown[] }).messages.at(-2)).toEqual({ role: 'assistant', content: 'Working on it' });
  expect(summary.state).toBe('succeeded');

  // The sidebar at the end, whole: each question, the tool call with its result, the replies, the stop.
  // Each question's header names the model and the mode, from session/new's config options.
  const header = () => [expect.stringMatching(/^- Datetime: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), '- ACP:      agentd', '- Model:    local/e2e-model', '- Mode:     build', ''];
  expect(summary.lines).toEqual([
    ...header(),
    '> Create hello.txt',
    '',
    '',
    '╭─  Write hello.txt("hello.txt")  succeeded',
    '│   Created hello.txt (1 lines).',
    '│   ',
    '│   --- /dev/null',
    '│   +++ b/hello.txt',
    '╰─  ... (Result truncated, remaining 3 lines not shown)',
    '',
    '',
    'Wrote hello.txt for you.',
    '',
    '-------',
    '',
    ...header(),
    '> Start a long job',
    '',
    '',
    'Working on it',
    '',
    '*[Request cancelled by user.]*',
    '',
    '-------',
    '',
    ...header(),
    '> Say bye',
    '',
    '',
    'Bye.',
    '',
    '',
    '',
  ]);
});
