import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { daemonEnv } from '../support/daemon-process.js';
import { startLoopHarness, toolResults, type LoopHarness } from '../support/loop-harness.js';
import { runCli } from '../support/run-cli.js';

interface Question {
  toolCall: { title: string; _meta?: { agentd?: { reason?: string } } };
  options: Array<{ optionId: string; name: string; kind: string }>;
}

/** One write call in one prompt; a real client answers each permission question with `optionId`. */
async function promptWrite(h: LoopHarness, file: string, optionId: string): Promise<{ questions: Question[]; result: string }> {
  const before = h.replay.requests.length;
  const questions: Question[] = [];
  h.peer.onRequest('session/request_permission', (params: Question) => {
    questions.push(params);
    return { outcome: { outcome: 'selected', optionId } };
  });
  const id = `call_${questions.length}_${before}`;
  h.replay.enqueue({ body: chatToolCallSse([{ id, name: 'write', arguments: { path: file, content: 'pwned' } }]) });
  h.replay.enqueue({ body: chatCompletionSse(['ok']) });
  await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: `write ${file}` }] });
  return { questions, result: toolResults(h.requestBody(before + 1))[id] ?? '' };
}

describe('permission escapes through a real client (daemon as a process)', () => {
  let h: LoopHarness;
  let outside: string | undefined;
  afterEach(async () => {
    await h.close();
    if (outside) rmSync(outside, { recursive: true, force: true });
  });

  it('[F4 approval-scope] the client is asked about the resolved path of a symlinked directory, and a rejection writes nothing outside', async () => {
    h = await startLoopHarness({}, { permissionMode: 'acceptEdits' });
    outside = mkdtempSync(join(tmpdir(), 'agentd-outside-'));
    symlinkSync(outside, join(h.workspace, 'docs'));
    const { questions, result } = await promptWrite(h, 'docs/notes.md', 'reject_once');
    expect(questions).toHaveLength(1);
    expect(questions[0]?.toolCall.title).toBe(`Write docs/notes.md (resolves to ${join(outside, 'notes.md')})`);
    expect(questions[0]?.toolCall._meta?.agentd?.reason).toContain(`${join(outside, 'notes.md')} is outside the session's directories`);
    expect(result).toMatch(/Permission denied/);
    expect(existsSync(join(outside, 'notes.md'))).toBe(false);
  });

  it('[F4 approval-scope] "always allow" names the one file it remembers, and agentd permissions list and revoke show and forget it', async () => {
    h = await startLoopHarness();
    const first = await promptWrite(h, 'a.txt', 'allow_always');
    expect(first.questions[0]?.options.map((o) => o.name)).toEqual([
      'Allow once',
      'Always allow write of this one file (symlinks resolved): a.txt',
      'Reject',
      'Always reject write of this one file (symlinks resolved): a.txt',
    ]);
    const listed = await runCli(['permissions', 'list', '--cwd', h.workspace], daemonEnv(h.home));
    expect(listed).toMatchObject({ code: 0, stdout: 'always allow   write(a.txt)  (write of this one file (symlinks resolved): a.txt)\n' });
    const wrong = await runCli(['permissions', 'revoke', 'write(b.txt)', '--cwd', h.workspace], daemonEnv(h.home));
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('"write(b.txt)" is not a remembered rule');
    expect(await runCli(['permissions', 'revoke', 'write(a.txt)', '--cwd', h.workspace], daemonEnv(h.home))).toMatchObject({ code: 0, stdout: 'revoked write(a.txt)\n' });
    expect((await runCli(['permissions', 'list', '--cwd', h.workspace], daemonEnv(h.home))).stdout).toBe(`No remembered answers for ${h.workspace}.\n`);
    const again = await promptWrite(h, 'a.txt', 'reject_once');
    expect(again.questions).toHaveLength(1);
  });

  it('[F2 workspace-commands] with acceptEdits and allow edit(**), a write into .git/hooks asks the client and offers no "always allow"', async () => {
    h = await startLoopHarness({ permissions: { allow: ['edit(**)'] } }, { permissionMode: 'acceptEdits' });
    mkdirSync(join(h.workspace, '.git', 'hooks'), { recursive: true });
    const { questions, result } = await promptWrite(h, '.git/hooks/pre-commit', 'reject_once');
    expect(questions).toHaveLength(1);
    expect(questions[0]?.options.map((o) => o.kind)).toEqual(['allow_once', 'reject_once', 'reject_always']);
    expect(questions[0]?.toolCall._meta?.agentd?.reason).toMatch(/pre-commit is inside \.git/);
    expect(result).toMatch(/Permission denied/);
    expect(existsSync(join(h.workspace, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it('[F4 approval-scope] agentd permissions explains bad usage', async () => {
    h = await startLoopHarness();
    const bad = await runCli(['permissions', 'forget'], daemonEnv(h.home));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown action "forget"; use list or revoke');
    const both = await runCli(['permissions', 'revoke', 'x', '--all'], daemonEnv(h.home));
    expect(both).toMatchObject({ code: 2, stderr: expect.stringContaining('revoke takes one RULE or --all') });
  });
});
