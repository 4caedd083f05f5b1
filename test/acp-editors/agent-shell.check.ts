import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, lastUserText, toolResultText } from '../support/chat-tool-call-sse.js';
import { bytesThrough, sseFrameEnds } from '../support/sse-frame-ends.js';
import { docSnippet, editorVersion, pluginPath, pluginsDir, startAcpEditorBed, type AcpEditorBed } from './acp-editor-bed.js';

/*
 * docs/editors.md's "Emacs: agent-shell" block in a real Emacs (`emacs --batch`, which
 * runs agent-shell's process filters and timers between keys): agent-shell-scenario.el
 * loads the block, runs `my/agentd`, presses RET on prompts, y on the permission dialog
 * and C-c C-c on a stalled turn, and writes what the shell showed and what went over
 * ACP (acp.el's traffic log) to a summary that this file checks with what the model got.
 */
const SCENARIO = fileURLToPath(new URL('./agent-shell-scenario.el', import.meta.url));
const PLUGINS = [
  ['agent-shell', 'xenodium/agent-shell'],
  ['acp.el', 'xenodium/acp.el'],
  ['shell-maker', 'xenodium/shell-maker'],
] as const;

interface Summary {
  steps: Record<string, Record<string, unknown> & { text: string }>;
  wire: Array<[direction: string, kind: string, method: string | null, detail: string | null]>;
  /** Each key the scenario pressed and the command it ran. */
  pressed: Array<[keys: string, command: string]>;
  events: string[];
}

/** `name@commit` of each checkout, for the record of what was checked. */
function checkouts(): string {
  return PLUGINS.map(([name, repository]) => {
    const commit = execFileSync('git', ['-C', pluginPath(name, repository), 'log', '-1', '--format=%h'], { encoding: 'utf8' }).trim();
    return `${name}@${commit}`;
  }).join(' ');
}


describe('docs/editors.md "Emacs: agent-shell" in Emacs', () => {
  let bed: AcpEditorBed;
  let summary: Summary;
  let exitCode: number | null;
  let stderr: string;

  beforeAll(async () => {
    const versions = `${checkouts()} in ${await editorVersion('emacs')}`;
    console.log(`agent-shell check: ${versions}`);
    bed = await startAcpEditorBed();
    const { replay } = bed.cd;
    // 2. The first prompt's answer, one SSE frame per write, so it streams as several chunks.
    const hello = chatCompletionSse(['Hello ', 'from agentd, ', 'through ', 'agent-shell.']);
    replay.enqueue({ body: hello, chunking: { splitAt: sseFrameEnds(hello) }, delayMs: 100 });
    // 3. The model writes hello.txt (the daemon asks permission), then says so.
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_write', name: 'write', arguments: { path: 'hello.txt', content: 'hi from agent-shell\n' } }]) });
    replay.enqueue({ body: chatCompletionSse(['Wrote ', 'hello.txt ', 'for you.']) });
    // 4. A reply that stalls after its first chunk, so the turn is in flight when C-c C-c comes.
    const stalled = chatCompletionSse(['Working on it', ' and this never arrives']);
    replay.enqueue({ body: stalled, stallAfterBytes: bytesThrough(stalled, 'Working on it') });
    // 5. The next prompt after the interrupt.
    replay.enqueue({ body: chatCompletionSse(['Still ', 'here.']) });

    // shell-maker refuses every prompt unless `curl --version` says 7.76+ (it never runs curl
    // for agent-shell); the bare editor root has no curl, so it gets one that only says that.
    const root = process.env.AGENTD_EDITOR_ROOT;
    if (root && !existsSync(join(root, 'usr/bin/curl'))) {
      writeFileSync(join(bed.scratch, 'bin', 'curl'), '#!/bin/sh\necho "curl 8.0.0 (stand-in for shell-maker\'s version check)"\n', { mode: 0o755 });
    }
    const config = join(bed.scratch, 'agentd-config.el');
    writeFileSync(config, docSnippet('Emacs: agent-shell', 'elisp'));
    const summaryPath = join(bed.scratch, 'summary.json');
    const run = await bed.runEditor('emacs', ['--batch', '-Q', '-l', SCENARIO], {
      AGENTD_EDITOR_PLUGINS: pluginsDir(),
      AGENTD_DOC_CONFIG: config,
      AGENTD_SUMMARY: summaryPath,
    });
    exitCode = run.code;
    stderr = run.stderr;
    if (!existsSync(summaryPath)) throw new Error(`the scenario wrote no summary (exit ${run.code}):\n${run.stderr}${run.stdout}`);
    summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as Summary;
    if (summary.steps.error) throw new Error(`the scenario failed: ${String(summary.steps.error.message)}\n${run.stderr}`);
  }, 150_000);

  afterAll(async () => {
    await bed?.close();
  });

  it('starts `agentd acp` and opens a session in the workspace, without authenticating', () => {
    const sent = summary.wire.filter(([direction]) => direction === 'outgoing').map(([, , method, detail]) => [method, detail]);
    expect(sent[0]).toEqual(['initialize', null]);
    expect(sent.map(([method]) => method)).not.toContain('authenticate');
    const sessionNew = sent.find(([method]) => method === 'session/new');
    expect(sessionNew?.[1]?.replace(/\/$/, '')).toBe(bed.cd.workspace);
  });

  it('shows the streamed answer to a prompt typed at the agentd> prompt', () => {
    expect(lastUserText(bed.cd.replay.requests[0]!.body)).toBe('Say hello');
    expect(summary.wire.filter(([, , , detail]) => detail === 'agent_message_chunk').length).toBeGreaterThanOrEqual(4);
    expect(summary.steps.hello!.text).toMatch(/agentd> Say hello\n\nHello from agentd, through agent-shell\.\n\nagentd> $/);
  });

  it('asks permission for the write (with View, since the question carries the diff), and y on the dialog lets it write hello.txt', () => {
    const write = summary.steps.write!;
    expect(write.dialog).toMatch(/agentd> Write hello\.txt\n\n▶ Edit a file\n\n╭─\n\n {4}⚠ Tool Permission ⚠\n\n\n {4}Write hello\.txt\n\n\n {4}\[ View \(v\) \] \[ Allow once \(y\) \] \[ Reject \(C-c C-c\) \]/);
    expect(summary.wire).toContainEqual(['incoming', 'request', 'session/request_permission', null]);
    expect(summary.wire).toContainEqual(['outgoing', 'response', null, 'selected allow_once']);
    expect(readFileSync(join(bed.cd.workspace, 'hello.txt'), 'utf8')).toBe('hi from agent-shell\n');
    expect(toolResultText(bed.cd.replay.requests[2]!.body, 'call_write')).toMatch(/^Created hello\.txt \(1 lines\)\./);
    expect(write.text).toMatch(/agentd> Write hello\.txt\n\n▶ Edited a file\n\nWrote hello\.txt for you\.\n\nagentd> $/);
    expect(write.body).toContain('[✓][edit] Write hello.txt +1\n\nCreated hello.txt (1 lines).');
  });

  it('C-c C-c interrupts a stalled turn: session/cancel goes out, the turn ends cancelled, the next prompt works', () => {
    expect(summary.steps.cancel!.asked).toEqual(['Interrupt?']);
    expect(summary.steps.cancel!.text).toMatch(/agentd> Start a long job\n\nWorking on it\n\nCancelled\n\nagentd> $/);
    expect(summary.wire).toContainEqual(['outgoing', 'notification', 'session/cancel', null]);
    // The session/prompt responses' stop reasons, one per turn: the daemon ended the third on the cancel.
    const stops = summary.wire.filter(([d, k, , detail]) => d === 'incoming' && k === 'response' && /^(end_turn|cancelled|max_tokens|refusal)$/.test(detail ?? ''));
    expect(stops.map(([, , , detail]) => detail)).toEqual(['end_turn', 'end_turn', 'cancelled', 'end_turn']);
    // Five model requests in all: the cancelled one was not retried.
    expect(bed.cd.replay.requests).toHaveLength(5);
    expect(lastUserText(bed.cd.replay.requests[4]!.body)).toBe('Are you still there?');
    expect(summary.steps['after-cancel']!.text).toMatch(/agentd> Are you still there\?\n\nStill here\.\n\nagentd> $/);
  });

  it('ran the commands the keys run for a user: RET submits, y is the dialog button, C-c C-c interrupts', () => {
    expect(summary.pressed).toEqual([
      ['RET', 'shell-maker-submit'],
      ['RET', 'shell-maker-submit'],
      ['y', "a button's lambda"],
      ['RET', 'shell-maker-submit'],
      ['C-c C-c', 'agent-shell-interrupt'],
      ['RET', 'shell-maker-submit'],
    ]);
  });

  it('stops the bridge when the shell buffer is killed (C-x k, no questions), and exits cleanly', () => {
    expect(summary.steps.exit).toMatchObject({ asked: [], killed: true, 'bridges-before': 1, 'bridges-after': 0 });
    expect(exitCode).toBe(0);
    // Emacs's own messages: agent-shell's spinner and the permission choice, nothing gone wrong.
    expect(stderr).not.toMatch(/error|warning|debugger/i);
  });
});
