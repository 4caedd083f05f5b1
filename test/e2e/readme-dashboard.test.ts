import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentdOnPath } from '../support/agentd-on-path.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { readmeCodeBlocks } from '../support/readme-code-blocks.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { CHROMIUM, requireProgram } from '../support/required-program.js';
import { runProcess } from '../support/run-process.js';

/** The README's "Dashboard" command run as printed, and the address it prints opened in Chromium. */
describe.skipIf(!requireProgram(CHROMIUM))("the README's dashboard command, run as printed", () => {
  const [block] = readmeCodeBlocks('README.md', '## Dashboard', 'sh');
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let bin: ReturnType<typeof agentdOnPath>;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    bin = agentdOnPath();
    env = { ...daemonEnv(home.home), PATH: bin.path(process.env) };
    // No display and no terminal: the command prints the address and opens nothing.
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
  });
  afterAll(async () => {
    await runProcess('sh', ['-c', 'agentd stop'], { env });
    await replay.close();
    home.cleanup();
    bin.cleanup();
  });

  it('starts the daemon, prints a login address on loopback, and that address logs a browser in once', async () => {
    expect(block!.trim().split('\n')).toHaveLength(1);
    const run = await runProcess('sh', ['-c', block!], { env });
    expect(run.code).toBe(0);
    const url = /^dashboard: (http:\/\/127\.0\.0\.1:\d+\/login\?token=\S+)$/m.exec(run.stdout)?.[1];
    expect(url, run.stdout + run.stderr).toBeDefined();

    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(url!);
      await page.getByRole('heading', { level: 1, name: 'Sessions', exact: true }).waitFor();
      await page.getByText('Connected', { exact: true }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      expect(errors).toEqual([]);
      // The link worked once: a second browser with the same address gets no page.
      const other = await browser.newPage();
      const again = await other.goto(url!);
      expect(again?.status()).toBe(401);
    } finally {
      await browser.close();
    }
  });
});
