import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { startDashboardBed, type DashboardBed } from '../../support/dashboard-browser.js';
import { CHROMIUM, requireProgram } from '../../support/required-program.js';

const hasChromium = requireProgram(CHROMIUM);

/**
 * The schedules, health and cost views against a real daemon in headless Chromium: a
 * schedule added on the page (after the daemon refused a bad cron beside its field), run
 * now, its run opened from the history; the run's cost in the chart and tables; the
 * provider and the config reload in the health view. Prices come from the user's config,
 * edited while the daemon runs, so the run costs exactly $2.00.
 */
describe.skipIf(!hasChromium)('the schedules, health and cost views in Chromium', () => {
  let bed: DashboardBed;

  beforeAll(async () => {
    bed = await startDashboardBed();
    // 1,000 input tokens at $1,000 per million and 500 output tokens at $2,000 per million: $2.00.
    const configFile = join(bed.daemon.home, 'config', 'config.json');
    const config = JSON.parse(readFileSync(configFile, 'utf8')) as { providers: { local: Record<string, unknown> } };
    config.providers.local.models = { 'e2e-model': { inputPrice: 1000, outputPrice: 2000 } };
    const reloaded = bed.peer.waitFor((m) => m.method === 'agentd/daemonEvent' && m.params.event.type === 'config_reloaded', 15_000, 'config_reloaded');
    writeFileSync(configFile, JSON.stringify(config, null, 2));
    await reloaded;
  }, 60_000);

  afterAll(async () => {
    await bed?.close();
  });

  it('adds a schedule, runs it now and opens its run\'s session from the history', async () => {
    const { page } = bed;
    await bed.openView('Schedules');
    await page.getByRole('button', { name: 'New schedule' }).click();
    await page.getByLabel('Name', { exact: true }).fill('nightly-check');
    await page.getByLabel('Cron', { exact: true }).fill('61 3 * * *');
    await page.getByLabel('Prompt', { exact: true }).fill('Say hello.');
    await page.getByLabel('Working folder', { exact: true }).fill(bed.daemon.workspace);
    await page.getByRole('button', { name: 'Add schedule' }).click();

    // The daemon's problem, beside the field it names, and the field marked invalid.
    const cronProblem = page.locator('#schedule-cron-problem');
    await expect.poll(async () => cronProblem.textContent()).toContain('the minute field "61"');
    expect(await page.getByLabel('Cron', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await bed.screenshot('schedules-refused-cron');

    await page.getByLabel('Cron', { exact: true }).fill('0 3 * * *');
    await page.getByRole('button', { name: 'Add schedule' }).click();
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'nightly-check' }) });
    await row.waitFor();
    expect(await row.getByRole('checkbox', { name: 'Enabled: nightly-check' }).isChecked()).toBe(true);
    expect(await row.textContent()).toContain('never run');

    bed.daemon.replay.enqueue({ body: chatCompletionSse(['Hello from ', 'the schedule.'], { promptTokens: 1000, completionTokens: 500 }) });
    await row.getByRole('button', { name: 'Run nightly-check now' }).click();
    const history = page.getByRole('table', { name: 'Runs of nightly-check' });
    const run = history.getByRole('row').filter({ hasText: 'completed' });
    await run.waitFor({ timeout: 15_000 });
    expect(await run.textContent()).toContain('$2.00');
    expect(await run.textContent()).toContain('manual');
    await expect.poll(async () => row.textContent()).toContain('completed');
    await bed.screenshot('schedules');

    const [{ runs }] = [await bed.peer.call('schedules/history', { id: (await bed.peer.call('schedules/list', {})).schedules[0]!.id })];
    const sessionId = runs[0]!.sessionId!;
    await run.getByRole('link', { name: /Open the session of the run/ }).click();
    expect(new URL(page.url()).hash).toBe(`#/session/${sessionId}`);
    await page.getByText('Hello from the schedule.').waitFor();
    await bed.screenshot('schedule-run-session');
    expect(bed.consoleErrors).toEqual([]);
  });

  it('edits, disables and, once confirmed, removes a schedule', async () => {
    const { page } = bed;
    await bed.openView('Schedules');
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'nightly-check' }) });
    await row.getByRole('button', { name: 'Edit nightly-check' }).click();
    expect(await page.getByLabel('Cron', { exact: true }).inputValue()).toBe('0 3 * * *');
    await page.getByLabel('Cron', { exact: true }).fill('30 4 * * *');
    await page.getByLabel('Budget (US dollars)', { exact: true }).fill('0.50');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await expect.poll(async () => row.getByRole('cell').nth(0).textContent()).toContain('30 4 * * *');
    const stored = (await bed.peer.call('schedules/list', {})).schedules.find((s) => s.name === 'nightly-check')!;
    expect(stored).toMatchObject({ cron: '30 4 * * *', budgetUsd: 0.5, prompt: 'Say hello.' });

    await row.getByRole('checkbox', { name: 'Enabled: nightly-check' }).uncheck();
    await expect.poll(async () => (await bed.peer.call('schedules/list', {})).schedules[0]!.enabled).toBe(false);
    await expect.poll(async () => row.getByRole('cell').nth(1).textContent()).toBe('none');

    // Removing asks first; focus goes to the safe answer, and Escape keeps the schedule.
    await row.getByRole('button', { name: 'Remove nightly-check' }).click();
    const keep = row.getByRole('button', { name: 'Keep it' });
    await expect.poll(async () => keep.evaluate((button) => button.ownerDocument.activeElement === button)).toBe(true);
    await page.keyboard.press('Escape');
    await row.getByRole('button', { name: 'Remove nightly-check' }).waitFor();
    await row.getByRole('button', { name: 'Remove nightly-check' }).click();
    await row.getByRole('button', { name: 'Yes, remove nightly-check' }).click();
    await page.getByText('Removed nightly-check.').waitFor();
    expect(await row.count()).toBe(0);
    expect((await bed.peer.call('schedules/list', {})).schedules).toEqual([]);
    expect(bed.consoleErrors).toEqual([]);
  });

  it('shows the run\'s cost in the chart and the tables, with the total', async () => {
    const { page } = bed;
    await bed.openView('Cost');
    const total = page.getByText(/^Total \$2\.00 from /);
    await total.waitFor();
    const chart = page.getByRole('img', { name: /Cost per day by model/ });
    const today = new Date().toISOString().slice(0, 10);
    expect(await chart.locator('rect').count()).toBe(1);
    expect(await chart.locator('rect title').textContent()).toBe(`${today}, local/e2e-model: $2.00`);
    const days = page.getByRole('table', { name: 'Cost per day' });
    expect(await days.getByRole('row').filter({ has: page.getByRole('rowheader', { name: today }) }).textContent()).toBe(`${today}$2.00$2.00`);
    expect(await days.getByRole('row').count()).toBe(1 + 30 + 1);
    const models = page.getByRole('table', { name: 'Cost per model' });
    expect(await models.getByRole('row').filter({ hasText: 'local/e2e-model' }).textContent()).toBe('local/e2e-model1$2.00');
    await bed.screenshot('cost');

    // Seven days: the same total over fewer rows.
    await page.getByRole('radio', { name: 'Last 7 days' }).check();
    await expect.poll(async () => days.getByRole('row').count()).toBe(1 + 7 + 1);
    expect(await total.textContent()).toMatch(/^Total \$2\.00 from /);

    // Another client's turn, priced the same: the open view follows (session_changed).
    const { sessionId } = await bed.peer.call('session/new', { cwd: bed.daemon.workspace, mcpServers: [] });
    bed.daemon.replay.enqueue({ body: chatCompletionSse(['Again.'], { promptTokens: 1000, completionTokens: 500 }) });
    await bed.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Once more.' }] });
    await page.getByText(/^Total \$4\.00 from .*, 2 model requests$/).waitFor({ timeout: 10_000 });
    expect(await chart.locator('rect title').textContent()).toBe(`${today}, local/e2e-model: $4.00`);
    expect(bed.consoleErrors).toEqual([]);
  });

  it('lists the configured provider, the config reload and, as it happens, a refused edit in the health view', async () => {
    const { page } = bed;
    await bed.openView('Health');
    const providers = page.getByRole('table', { name: 'Providers' });
    const local = providers.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'local', exact: true }) });
    await local.waitFor();
    expect(await local.textContent()).toContain('openai-chat');
    expect(await local.textContent()).toContain(`${bed.daemon.replay.url}/v1`);
    expect(await local.textContent()).toContain('closed');
    const reloads = page.getByRole('table', { name: 'Configuration reloads' });
    expect(await reloads.getByRole('row').filter({ hasText: 'config.json' }).first().textContent()).toContain('reloaded');
    await page.getByRole('heading', { name: 'Sandbox' }).waitFor();

    // A refused edit while the view is open: the config_rejected event brings it in, with the file, path and reason.
    const configFile = join(bed.daemon.home, 'config', 'config.json');
    const good = readFileSync(configFile, 'utf8');
    writeFileSync(configFile, JSON.stringify({ ...JSON.parse(good), model: 'no-slash-here' }, null, 2));
    const rejected = reloads.getByRole('row').filter({ hasText: 'rejected' });
    await rejected.waitFor({ timeout: 15_000 });
    expect(await rejected.textContent()).toContain(configFile);
    expect(await rejected.textContent()).toContain('model: expected a string like "openai/gpt-4.1"');
    await bed.screenshot('health');
    expect(bed.consoleErrors).toEqual([]);
  });
});
