import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { startLoopHarness, toolResults, type LoopHarness } from '../support/loop-harness.js';

/** One write call per prompt; the client answers the permission question with `answer`. */
async function promptWrite(h: LoopHarness, file: string, answer: Record<string, unknown> | 'hang'): Promise<{ asked: number; result: string }> {
  const before = h.replay.requests.length;
  let asked = 0;
  h.peer.onRequest('session/request_permission', (params) => {
    asked++;
    expect(params.sessionId).toBe(h.sessionId);
    expect(params.options.map((o: { kind: string }) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
    return answer === 'hang' ? new Promise(() => undefined) : answer;
  });
  h.replay.enqueue({ body: chatToolCallSse([{ id: `call_${file}`, name: 'write', arguments: { path: file, content: 'x' } }]) });
  h.replay.enqueue({ body: chatCompletionSse(['ok']) });
  const prompt = h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: `write ${file}` }] });
  if (answer === 'hang') {
    await h.peer.waitFor((m) => m.method === 'session/request_permission' && m.params.toolCall.toolCallId === `call_${file}`);
    h.peer.notify('session/cancel', { sessionId: h.sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    return { asked, result: '' };
  }
  await prompt;
  return { asked, result: toolResults(h.requestBody(before + 1))[`call_${file}`] ?? '' };
}

describe('permission flows with a client answering', () => {
  let h: LoopHarness;
  afterEach(async () => h.close());

  it('allow_once runs the call and asks again next time', async () => {
    h = await startLoopHarness();
    const first = await promptWrite(h, 'a.txt', { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect(first.asked).toBe(1);
    expect(existsSync(join(h.workspace, 'a.txt'))).toBe(true);
    const second = await promptWrite(h, 'b.txt', { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect(second.asked).toBe(1);
  });

  it('allow_always is remembered for the project and not asked again', async () => {
    h = await startLoopHarness();
    await promptWrite(h, 'a.txt', { outcome: { outcome: 'selected', optionId: 'allow_always' } });
    // Remembered in the daemon's data directory, never in the repository.
    const dir = join(h.home, 'data', 'permissions');
    expect(readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('')).toMatch(/write/);
    expect(existsSync(join(h.workspace, '.agentd', 'permissions.json'))).toBe(false);
    const again = await promptWrite(h, 'a.txt', { outcome: { outcome: 'selected', optionId: 'reject_once' } });
    expect(again.asked).toBe(0);
  });

  it('reject_once refuses with a result the model can read', async () => {
    h = await startLoopHarness();
    const { result } = await promptWrite(h, 'a.txt', { outcome: { outcome: 'selected', optionId: 'reject_once' } });
    expect(result).toMatch(/Permission denied: the user rejected this write call/);
    expect(existsSync(join(h.workspace, 'a.txt'))).toBe(false);
  });

  it('reject_always is remembered and refuses without asking', async () => {
    h = await startLoopHarness();
    await promptWrite(h, 'a.txt', { outcome: { outcome: 'selected', optionId: 'reject_always' } });
    const again = await promptWrite(h, 'a.txt', { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect(again.asked).toBe(0);
    expect(again.result).toMatch(/Permission denied/);
    expect(existsSync(join(h.workspace, 'a.txt'))).toBe(false);
  });

  it('a cancelled turn withdraws the pending question', async () => {
    h = await startLoopHarness();
    await promptWrite(h, 'a.txt', 'hang');
    await h.peer.waitFor((m) => m.method === '$/cancel_request');
    expect(existsSync(join(h.workspace, 'a.txt'))).toBe(false);
  });

  it('with --permission-mode deny nothing is asked and the model is told how to allow it', async () => {
    h = await startLoopHarness({}, { permissionMode: 'deny' });
    const { asked, result } = await promptWrite(h, 'a.txt', { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect(asked).toBe(0);
    expect(result).toMatch(/Permission denied/);
  });
});
