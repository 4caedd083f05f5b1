import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { chatToolCallSse } from '../../support/chat-tool-call-sse.js';
import { startDashboardBed, type DashboardBed } from '../../support/dashboard-browser.js';
import { CHROMIUM, requireProgram } from '../../support/required-program.js';
import { sseFrameEnds } from '../../support/sse-frame-ends.js';

describe.skipIf(!requireProgram(CHROMIUM))('the dashboard in Chromium: the sessions list', () => {
  let bed: DashboardBed;
  beforeAll(async () => {
    bed = await startDashboardBed();
  }, 60_000);
  afterAll(async () => {
    await bed?.close();
  });

  it('logs in through the printed address; a session another client starts appears, live, and streams in its view', async () => {
    const { page, peer, daemon } = bed;
    await bed.openView('Sessions');
    const { sessionId } = await peer.call('session/new', { cwd: daemon.workspace, mcpServers: [] });
    const row = page.locator(`tr[data-session-id="${sessionId}"]`);
    await row.waitFor();
    expect(await row.locator('td').nth(2).innerText()).toBe('idle');

    const pieces = ['The parser ', 'fails on ', 'empty input; ', 'the fix is ', 'a guard.'];
    const body = chatCompletionSse(pieces);
    daemon.replay.enqueue({ body, chunking: { splitAt: sseFrameEnds(body) }, delayMs: 150 });
    const turn = peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Why does the parser fail?' }] });
    await row.locator('td').nth(2).getByText('running').waitFor();
    await row.getByRole('link').click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    const transcript = page.getByRole('log', { name: 'Transcript' });
    await transcript.getByText('Why does the parser fail?').waitFor();
    await transcript.getByText(pieces.join('')).waitFor();
    expect((await turn).stopReason).toBe('end_turn');
    await page.getByRole('button', { name: 'Send' }).waitFor();
    await bed.screenshot('session');

    await bed.openView('Sessions');
    await row.locator('td').nth(2).getByText('idle').waitFor();
    expect(await row.getByRole('link').innerText()).not.toBe('Untitled session');
    expect(bed.consoleErrors).toEqual([]);
  });

  it('narrows the list by project, state and title, and shows a question waiting and a turn running', async () => {
    const { page, peer, daemon } = bed;
    const site = mkdtempSync(join(tmpdir(), 'agentd-site-'));
    try {
      const { sessionId } = await peer.call('session/new', { cwd: site, mcpServers: [] });
      daemon.replay.enqueue({ body: chatCompletionSse(['Added.']) });
      await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Add a changelog entry' }] });
      await bed.openView('Sessions');
      const titles = () => page.locator('tbody tr td:first-child a').allInnerTexts();
      await page.getByRole('link', { name: 'Add a changelog entry' }).waitFor();
      expect((await titles()).length).toBeGreaterThanOrEqual(2);

      await page.getByRole('combobox', { name: 'Project' }).selectOption(site);
      await expect.poll(titles).toEqual(['Add a changelog entry']);
      await page.getByRole('combobox', { name: 'Project' }).selectOption('');
      await page.getByRole('searchbox', { name: 'Search titles' }).fill('PARSER');
      await expect.poll(titles).toEqual(['Why does the parser fail?']);
      await page.getByRole('combobox', { name: 'State' }).selectOption('running');
      await page.getByText('No sessions match.').waitFor();
      await page.getByRole('combobox', { name: 'State' }).selectOption('');
      await page.getByRole('searchbox', { name: 'Search titles' }).fill('');
      await page.getByText(/^\d+ sessions$/).waitFor();

      // One session waiting for a permission answer and one running, as the list shows them live.
      const asking = (await peer.call('session/new', { cwd: site, mcpServers: [] })).sessionId;
      // The model's answers are served in order: the one after the permission is queued once the running turn has its own.
      daemon.replay.enqueue({ body: chatToolCallSse([{ id: 'call_r', name: 'write', arguments: { path: 'CHANGELOG.md', content: '## 1.2.0\n' } }]) });
      const asked = peer.call('session/prompt', { sessionId: asking, prompt: [{ type: 'text', text: 'Prepare the 1.2.0 release notes' }] });
      const askingRow = page.locator(`tr[data-session-id="${asking}"]`);
      await askingRow.getByText('waiting for permission').waitFor();
      expect(await askingRow.locator('.row-note').innerText()).toMatch(/^Asks: /);
      const running = (await peer.call('session/new', { cwd: daemon.workspace, mcpServers: [] })).sessionId;
      const slow = chatCompletionSse(['Reading ', 'the test logs']);
      daemon.replay.enqueue({ body: slow, stallAfterBytes: sseFrameEnds(slow)[1]! });
      const stalled = peer.call('session/prompt', { sessionId: running, prompt: [{ type: 'text', text: 'Find the flaky test in CI' }] });
      await page.locator(`tr[data-session-id="${running}"]`).getByText('running').waitFor();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await bed.screenshot('sessions');

      daemon.replay.enqueue({ body: chatCompletionSse(['Released.']) });
      const question = await peer.waitFor((m) => m.method === 'session/request_permission' && m.params?.sessionId === asking, 15_000, 'the question');
      peer.send({ jsonrpc: '2.0', id: question.id!, result: { outcome: { outcome: 'selected', optionId: 'allow_once' } } });
      expect((await asked).stopReason).toBe('end_turn');
      await peer.call('session/abort', { sessionId: running });
      expect((await stalled).stopReason).toBe('cancelled');
      await askingRow.getByText('idle').waitFor();
      expect(bed.consoleErrors).toEqual([]);
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });
});
