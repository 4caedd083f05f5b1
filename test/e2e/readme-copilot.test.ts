import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { copilotTokenAnswer, startGitHubStandIn, type GitHubStandIn } from '../support/github-stand-in.js';
import { readmeCodeBlocks } from '../support/readme-code-blocks.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { runCli } from '../support/run-cli.js';

/**
 * The README's GitHub Copilot section, run as printed: its config, then its two commands
 * against a loopback GitHub (the login given the stand-in's URL with --github-url, the only
 * change: the test must not reach github.com) and a loopback seat listing its models.
 */
const [commands] = readmeCodeBlocks('README.md', '### GitHub Copilot', 'sh');
const [config] = readmeCodeBlocks('README.md', '### GitHub Copilot', 'json');
let github: GitHubStandIn | undefined;
let seat: ReplayServer | undefined;
const home = makeHome({});
afterAll(async () => {
  await github?.close();
  await seat?.close();
  home.cleanup();
});

it('logs in, lists the seat\'s models and configures the model the example names', async () => {
  seat = await startReplayServer({ respond: () => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: [{ id: 'gpt-4.1', capabilities: { type: 'chat' } }, { id: 'claude-sonnet-4', capabilities: { type: 'chat' } }], object: 'list' }) }) });
  github = await startGitHubStandIn({
    deviceCode: { body: { device_code: 'dc-readme', user_code: 'ABCD-1234', verification_uri: 'https://github.com/login/device', expires_in: 900, interval: 0 } },
    polls: [{ body: { access_token: 'ghu_readme' } }],
    exchange: () => copilotTokenAnswer(seat!.url),
  });
  writeFileSync(join(home.home, 'config', 'config.json'), config!);
  const env = daemonEnv(home.home);
  const [login, models] = commands!.trimEnd().split('\n').map((line) => line.split(' ').slice(1));
  expect(login).toEqual(['login', 'copilot']);

  const loggedIn = await runCli([...login!, '--github-url', github.url], env);
  expect(loggedIn.stderr).toBe('');
  expect(loggedIn.stdout).toContain('enter the code ABCD-1234');

  const listed = await runCli(models!, env);
  expect(listed.stderr).toBe('');
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain('copilot/gpt-4.1');
  expect(listed.stdout).toContain('copilot/claude-sonnet-4');
  expect(JSON.parse(config!)).toMatchObject({ model: 'copilot/gpt-4.1' });
});
