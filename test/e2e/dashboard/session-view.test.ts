import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { chatToolCallSse } from '../../support/chat-tool-call-sse.js';
import { startDashboardBed, type DashboardBed } from '../../support/dashboard-browser.js';
import { loadFixture } from '../../support/load-fixture.js';
import { until } from '../../support/daemon-process.js';
import { CHROMIUM, requireProgram } from '../../support/required-program.js';
import { sseFrameEnds } from '../../support/sse-frame-ends.js';

describe.skipIf(!requireProgram(CHROMIUM))('the dashboard in Chromium: a session', () => {
  let bed: DashboardBed;
  beforeAll(async () => {
    bed = await startDashboardBed();
  }, 60_000);
  afterAll(async () => {
    await bed?.close();
  });

  /** A new session made by the other client, opened on the page from the list. */
  const openNewSession = async (): Promise<string> => {
    const { sessionId } = await bed.peer.call('session/new', { cwd: bed.daemon.workspace, mcpServers: [] });
    await bed.openView('Sessions');
    await bed.page.locator(`tr[data-session-id="${sessionId}"]`).getByRole('link').click();
    await bed.page.getByRole('button', { name: 'Send' }).waitFor();
    return sessionId;
  };

  it('answers a permission question on the page: the file is written and the other client asked sees it withdrawn', async () => {
    const { page, peer, daemon } = bed;
    const sessionId = await openNewSession();
    daemon.replay.enqueue({ body: chatToolCallSse([{ id: 'call_w', name: 'write', arguments: { path: 'note.txt', content: 'from the page\n' } }]) });
    daemon.replay.enqueue({ body: chatCompletionSse(['Written.']) });
    const turn = peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write a note' }] });

    const question = page.getByRole('group', { name: /^Permission: / });
    await question.waitFor();
    const asked = await peer.waitFor((m) => m.method === 'session/request_permission', 15_000, 'the question put to the other client');
    expect(await question.getByRole('button').allInnerTexts()).toEqual(asked.params.options.map((option: { name: string }) => option.name));
    await bed.screenshot('permission');
    await question.getByRole('button', { name: 'Allow once' }).click();

    expect((await turn).stopReason).toBe('end_turn');
    expect(readFileSync(join(daemon.workspace, 'note.txt'), 'utf8')).toBe('from the page\n');
    await peer.waitFor((m) => m.method === '$/cancel_request' && m.params?.requestId === asked.id, 15_000, 'the other client’s question withdrawn');
    await question.waitFor({ state: 'detached' });
    const tool = page.getByRole('article', { name: /^Tool call: / });
    await tool.getByText('done').waitFor();
    await tool.getByRole('figure').getByText('+ from the page').waitFor();
    await page.getByRole('log', { name: 'Transcript' }).getByText('Written.').waitFor();
    expect(bed.consoleErrors).toEqual([]);
  });

  it('closes its permission question when another client answers it first: the daemon withdraws it and says it was settled', async () => {
    const { page, peer, daemon } = bed;
    // What the daemon sends the page, from a fresh connection (the page reloaded with the frames watched).
    const frames: Array<{ method?: string; params?: any }> = [];
    page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => void frames.push(JSON.parse(String(payload)))));
    await page.reload();
    await page.getByText('Connected', { exact: true }).waitFor();
    const sessionId = await openNewSession();
    daemon.replay.enqueue({ body: chatToolCallSse([{ id: 'call_o', name: 'write', arguments: { path: 'other.txt', content: 'from the other client\n' } }]) });
    daemon.replay.enqueue({ body: chatCompletionSse(['Written elsewhere.']) });
    const turn = peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write other.txt' }] });
    const question = page.getByRole('group', { name: /^Permission: / });
    await question.waitFor();
    const asked = await peer.waitFor((m) => m.method === 'session/request_permission' && m.params?.toolCall?.toolCallId === 'call_o', 15_000, 'the question');
    peer.send({ jsonrpc: '2.0', id: asked.id!, result: { outcome: { outcome: 'selected', optionId: 'allow_once' } } });
    await question.waitFor({ state: 'detached' });
    expect((await turn).stopReason).toBe('end_turn');
    expect(readFileSync(join(daemon.workspace, 'other.txt'), 'utf8')).toBe('from the other client\n');
    const pageAsked = frames.find((m) => m.method === 'session/request_permission') as { id?: number } | undefined;
    // The browser reports frames to the test through its debugging protocol, which can lag the page: polled.
    await expect.poll(() => frames, { timeout: 5_000 }).toContainEqual({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: pageAsked?.id } });
    await expect
      .poll(() => frames, { timeout: 5_000 })
      .toContainEqual({ jsonrpc: '2.0', method: 'agentd/event', params: { sessionId, event: { type: 'permission_resolved', toolCallId: 'call_o', outcome: 'allow_once' } } });
    await page.getByRole('log', { name: 'Transcript' }).getByText('Written elsewhere.').waitFor();
    expect(bed.consoleErrors).toEqual([]);
  });

  it('shows the model\'s reasoning collapsed above its answer, opened from the keyboard', async () => {
    const { page, daemon } = bed;
    await openNewSession();
    // A recorded DeepSeek answer: reasoning "Nine is 3²." then the text "The answer is 3.".
    daemon.replay.enqueue({ body: loadFixture('openai-chat', 'reasoning-content-deepseek').bytes });
    await page.getByRole('textbox', { name: 'Message' }).fill('What is the square root of nine?');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    const transcript = page.getByRole('log', { name: 'Transcript' });
    await transcript.getByRole('article', { name: 'Agent' }).getByText('The answer is 3.').waitFor();
    const thought = transcript.locator('details.thought');
    expect(await thought.getAttribute('open')).toBeNull();
    expect(await thought.getByText('Nine is 3².').isVisible()).toBe(false);
    await thought.getByText('Thinking').focus();
    await page.keyboard.press('Enter');
    await thought.getByText('Nine is 3².').waitFor();
    expect(bed.consoleErrors).toEqual([]);
  });

  it('shows the plan the agent keeps with its todo tool', async () => {
    const { page, peer, daemon } = bed;
    const sessionId = await openNewSession();
    const todos = [
      { content: 'Read the parser', status: 'completed' },
      { content: 'Add the guard', status: 'in_progress', priority: 'high' },
      { content: 'Write a test', status: 'pending' },
    ];
    daemon.replay.enqueue({ body: chatToolCallSse([{ id: 'call_p', name: 'todo', arguments: { todos } }]) });
    daemon.replay.enqueue({ body: chatCompletionSse(['Planned.']) });
    expect((await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'plan the fix' }] })).stopReason).toBe('end_turn');
    const plan = page.getByRole('region', { name: 'Plan' });
    await expect.poll(() => plan.getByRole('listitem').allTextContents()).toEqual(['● Read the parser (completed)', '◐ Add the guard (in progress)', '○ Write a test (pending)']);
    expect(bed.consoleErrors).toEqual([]);
  });

  it('prompts with Enter (Shift+Enter is a new line); steers, queues a follow-up and stops a running turn', async () => {
    const { page, peer, daemon } = bed;
    const sessionId = await openNewSession();
    const box = page.getByRole('textbox', { name: 'Message' });
    const transcript = page.getByRole('log', { name: 'Transcript' });

    daemon.replay.enqueue({ body: chatCompletionSse(['Two lines ', 'read.']) });
    const modelRequests = daemon.replay.requests.length;
    await box.fill('line one');
    await box.press('Shift+Enter');
    await box.pressSequentially('line two');
    expect(await box.inputValue()).toBe('line one\nline two');
    expect(daemon.replay.requests).toHaveLength(modelRequests);
    await box.press('Enter');
    await transcript.getByText('Two lines read.').waitFor();
    expect(await transcript.getByRole('article', { name: 'You' }).innerText()).toBe('line one\nline two');
    expect(await box.inputValue()).toBe('');

    const turnEnds = () => peer.received.filter((m) => m.method === 'agentd/event' && m.params?.sessionId === sessionId && m.params.event.type === 'turn_end');
    const endedBefore = turnEnds().length;
    const body = chatCompletionSse(['Thinking about it', ' for a long time']);
    daemon.replay.enqueue({ body, stallAfterBytes: sseFrameEnds(body)[1]! });
    await box.fill('take your time');
    await box.press('Enter');
    await transcript.getByText('Thinking about it').waitFor();
    const stop = page.getByRole('button', { name: 'Stop' });
    await stop.waitFor();
    await box.fill('actually, be quick');
    await page.getByRole('button', { name: 'Steer' }).click();
    await page.getByText('1 steering, 0 follow-up queued').waitFor();
    await box.fill('then add a test');
    await page.getByRole('button', { name: 'Follow-up' }).click();
    await page.getByText('1 steering, 1 follow-up queued').waitFor();
    await expect.poll(() => transcript.getByRole('article', { name: 'You' }).allInnerTexts()).toEqual(['line one\nline two', 'take your time', 'actually, be quick', 'then add a test']);
    await bed.screenshot('session-running');
    await stop.click();
    await until(() => turnEnds().length > endedBefore, 15_000, 'the stopped turn to end');
    expect(turnEnds().map((m) => m.params.event.stopReason)).toEqual(['end_turn', 'cancelled']);
    await page.getByRole('button', { name: 'Send' }).waitFor();
    expect(bed.consoleErrors).toEqual([]);
  });

  it('switches the mode from its picker and exports the session as Markdown and JSON', async () => {
    const { page, peer, daemon } = bed;
    const sessionId = await openNewSession();
    daemon.replay.enqueue({ body: chatCompletionSse(['Exported answer.']) });
    await page.getByRole('textbox', { name: 'Message' }).fill('something to export');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await page.getByRole('log', { name: 'Transcript' }).getByText('Exported answer.').waitFor();

    const mode = page.getByRole('combobox', { name: 'Mode', exact: true });
    const values = await mode.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    const other = values.find((value) => value !== 'build')!;
    await mode.selectOption(other);
    await until(async () => (await peer.call('daemon/sessions', {})).sessions.find((s) => s.sessionId === sessionId)?.mode === other, 15_000, `the mode ${other}`);
    await expect.poll(() => mode.inputValue()).toBe(other);

    const [markdown] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Markdown' }).click()]);
    expect(markdown.suggestedFilename()).toMatch(/\.md$/);
    const markdownText = readFileSync((await markdown.path())!, 'utf8');
    expect(markdownText).toContain('something to export');
    expect(markdownText).toContain('Exported answer.');
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    expect(json.suggestedFilename()).toMatch(/\.json$/);
    expect(JSON.stringify(JSON.parse(readFileSync((await json.path())!, 'utf8')))).toContain('Exported answer.');
    expect(bed.consoleErrors).toEqual([]);
  });

  it('names every control and reaches each with Tab; a permission question is answered from the keyboard', async () => {
    const { page, peer, daemon } = bed;
    const sessionId = await openNewSession();
    daemon.replay.enqueue({ body: chatToolCallSse([{ id: 'call_k', name: 'write', arguments: { path: 'keys.txt', content: 'typed\n' } }]) });
    daemon.replay.enqueue({ body: chatCompletionSse(['Done by keyboard.']) });
    const turn = peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write keys.txt' }] });
    await page.getByRole('group', { name: /^Permission: / }).waitFor();

    // Every control, numbered, with the name assistive technology would read: its aria-label, its label, or its text.
    const controls = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('a[href], button, select, textarea, input, summary')).map((element, index) => {
        element.dataset.control = String(index);
        const labelled = (element as HTMLInputElement).labels?.[0]?.textContent ?? null;
        return { index: String(index), name: (element.getAttribute('aria-label') ?? labelled ?? element.textContent ?? '').trim() };
      }),
    );
    expect(controls.filter((control) => control.name === '')).toEqual([]);
    const reached = new Set<string>();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (let i = 0; i < controls.length + 5; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.control ?? null);
      if (focused !== null) reached.add(focused);
    }
    expect(controls.filter((control) => !reached.has(control.index)).map((control) => control.name)).toEqual([]);

    await page.getByRole('button', { name: 'Allow once' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('prompt-text');
    expect((await turn).stopReason).toBe('end_turn');
    expect(readFileSync(join(daemon.workspace, 'keys.txt'), 'utf8')).toBe('typed\n');
    expect(bed.consoleErrors).toEqual([]);
  });
});
