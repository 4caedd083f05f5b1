import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
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

  it('narrows the list by project, state and title', async () => {
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
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await bed.screenshot('sessions');
      expect(bed.consoleErrors).toEqual([]);
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });
});
