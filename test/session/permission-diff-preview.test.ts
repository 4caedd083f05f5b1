import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { startLoopHarness, type LoopHarness } from '../support/loop-harness.js';

/*
 * A permission question for write or edit carries the proposed change as ACP `diff`
 * content, so a client (Zed's review, CodeCompanion's "View") shows it before the user
 * answers; never for a file outside the session's directories or on a protected path,
 * whose current text would travel to the client.
 */

/** Asks one call's permission, rejects it, and returns the tool call the client was shown. */
async function questionFor(h: LoopHarness, name: 'write' | 'edit', args: Record<string, unknown>): Promise<Record<string, unknown>> {
  let shown: Record<string, unknown> | undefined;
  h.peer.onRequest('session/request_permission', (params) => {
    shown = params.toolCall;
    return { outcome: { outcome: 'selected', optionId: 'reject_once' } };
  });
  h.replay.enqueue({ body: chatToolCallSse([{ id: 'call_1', name, arguments: args }]) });
  h.replay.enqueue({ body: chatCompletionSse(['ok']) });
  await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'change it' }] });
  expect(shown, 'no permission question was asked').toBeDefined();
  return shown!;
}

describe('the diff a permission question shows', () => {
  let h: LoopHarness;
  let elsewhere: string | undefined;
  afterEach(async () => {
    await h.close();
    if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
    elsewhere = undefined;
  });

  it('a write that creates a file shows its whole content as new', async () => {
    h = await startLoopHarness();
    const call = await questionFor(h, 'write', { path: 'src/new.txt', content: 'hello\n' });
    expect(call.content).toEqual([{ type: 'diff', path: join(h.workspace, 'src/new.txt'), oldText: null, newText: 'hello\n' }]);
  });

  it('a write over a file shows the old text and the new', async () => {
    h = await startLoopHarness();
    writeFileSync(join(h.workspace, 'a.txt'), 'before\n');
    const call = await questionFor(h, 'write', { path: 'a.txt', content: 'after\n' });
    expect(call.content).toEqual([{ type: 'diff', path: join(h.workspace, 'a.txt'), oldText: 'before\n', newText: 'after\n' }]);
  });

  it('an edit shows the file with the edits applied, keeping its CRLF endings and dropping the BOM as the result diff does', async () => {
    h = await startLoopHarness();
    writeFileSync(join(h.workspace, 'a.txt'), '\uFEFFone\r\ntwo\r\nthree\r\n');
    const call = await questionFor(h, 'edit', { path: 'a.txt', edits: [{ old: 'two\n', new: 'TWO\nand a half\n' }] });
    expect(call.content).toEqual([
      { type: 'diff', path: join(h.workspace, 'a.txt'), oldText: 'one\r\ntwo\r\nthree\r\n', newText: 'one\r\nTWO\r\nand a half\r\nthree\r\n' },
    ]);
  });

  it('a symlink inside the workspace shows the change to the file it resolves to, under that path', async () => {
    h = await startLoopHarness();
    mkdirSync(join(h.workspace, 'real'));
    writeFileSync(join(h.workspace, 'real', 'a.txt'), 'before\n');
    symlinkSync(join(h.workspace, 'real', 'a.txt'), join(h.workspace, 'alias.txt'));
    const call = await questionFor(h, 'write', { path: 'alias.txt', content: 'after\n' });
    expect(call.content).toEqual([{ type: 'diff', path: join(h.workspace, 'real', 'a.txt'), oldText: 'before\n', newText: 'after\n' }]);
  });

  it('an edit that would fail, a binary file and a file above 256 KiB, before or after, show no diff (the question still comes)', async () => {
    h = await startLoopHarness();
    writeFileSync(join(h.workspace, 'a.txt'), 'one\n');
    expect((await questionFor(h, 'edit', { path: 'a.txt', old: 'missing', new: 'x' })).content).toBeUndefined();
    writeFileSync(join(h.workspace, 'b.bin'), Buffer.from([0x89, 0x50, 0x00, 0xff, 0xfe]));
    expect((await questionFor(h, 'write', { path: 'b.bin', content: 'text' })).content).toBeUndefined();
    writeFileSync(join(h.workspace, 'big.txt'), 'x'.repeat(256 * 1024 + 1));
    expect((await questionFor(h, 'write', { path: 'big.txt', content: 'small' })).content).toBeUndefined();
    // Nor a change whose result would be above 256 KiB: a new file, or an edit that grows one.
    expect((await questionFor(h, 'write', { path: 'new-big.txt', content: 'y'.repeat(256 * 1024 + 1) })).content).toBeUndefined();
    writeFileSync(join(h.workspace, 'grows.txt'), 'a\n'.repeat(1000));
    expect((await questionFor(h, 'edit', { path: 'grows.txt', old: 'a', new: 'b'.repeat(300), replaceAll: true })).content).toBeUndefined();
  });

  it('never for a file outside the session, however it is spelled: absolute, ../, or a symlink inside that leads out', async () => {
    h = await startLoopHarness();
    elsewhere = mkdtempSync(join(tmpdir(), 'agentd-outside-'));
    writeFileSync(join(elsewhere, 'secret.txt'), 'do not show\n');
    symlinkSync(elsewhere, join(h.workspace, 'link'));
    const relative = join('..', elsewhere.slice(elsewhere.lastIndexOf('/') + 1), 'secret.txt');
    for (const path of [join(elsewhere, 'secret.txt'), relative, 'link/secret.txt']) {
      const call = await questionFor(h, 'write', { path, content: 'x' });
      expect(call.content, path).toBeUndefined();
      expect(JSON.stringify(call), path).not.toContain('do not show');
    }
    const edit = await questionFor(h, 'edit', { path: 'link/secret.txt', old: 'do not', new: 'may' });
    expect(JSON.stringify(edit)).not.toContain('do not show');
  });

  it('never for a protected path (.git, .agentd), whose text may be a credential or a hook', async () => {
    h = await startLoopHarness();
    mkdirSync(join(h.workspace, '.git'));
    writeFileSync(join(h.workspace, '.git', 'config'), '[remote]\n\turl = https://token@example.invalid\n');
    const call = await questionFor(h, 'edit', { path: '.git/config', old: 'remote', new: 'x' });
    expect(call.content).toBeUndefined();
    expect(JSON.stringify(call)).not.toContain('token@');
  });
});
