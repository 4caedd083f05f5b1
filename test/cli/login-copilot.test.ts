import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { copilotTokenAnswer, startGitHubStandIn, type GitHubStandIn, type StandInAnswer } from '../support/github-stand-in.js';
import { runCli } from '../support/run-cli.js';

const deviceCode: StandInAnswer = {
  body: { device_code: 'dc-cli-0001', user_code: 'WDJB-MJHT', verification_uri: 'https://github.com/login/device', expires_in: 900, interval: 0 },
};

describe('agentd login copilot, run as a process against a loopback GitHub', () => {
  let github: GitHubStandIn | undefined;
  let home: ReturnType<typeof makeHome>;
  afterEach(async () => {
    await github?.close();
    github = undefined;
    home.cleanup();
  });

  async function login(polls: StandInAnswer[], exchange: StandInAnswer = copilotTokenAnswer('https://api.githubcopilot.com')) {
    github = await startGitHubStandIn({ deviceCode, polls, exchange: () => exchange });
    home = makeHome({});
    const result = await runCli(['login', 'copilot', '--github-url', github.url], daemonEnv(home.home));
    return { ...result, file: join(home.home, 'state', 'copilot.json') };
  }

  it('shows the URL and code, waits for the approval, checks the seat and stores the login 0600 in the state directory', async () => {
    const result = await login([{ body: { error: 'authorization_pending' } }, { body: { access_token: 'ghu_fromCli', token_type: 'bearer', scope: 'read:user' } }]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('To log in to GitHub Copilot, open https://github.com/login/device and enter the code WDJB-MJHT\n');
    expect(result.stdout).toContain(`The login is stored in ${result.file} (mode 0600)`);
    expect(statSync(result.file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(result.file, 'utf8'))).toMatchObject({ githubToken: 'ghu_fromCli', githubUrl: github!.url });
    expect(github!.exchanges()[0]!.headers.authorization).toBe('token ghu_fromCli');
    // Never in config: the config directory holds only what makeHome wrote.
    expect(readFileSync(join(home.home, 'config', 'config.json'), 'utf8')).not.toContain('ghu_fromCli');
  });

  it('a declined authorization ends in one line and stores nothing', async () => {
    const result = await login([{ body: { error: 'access_denied', error_description: 'The authorization request was denied.' } }]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('agentd login copilot: the authorization was declined on GitHub; run `agentd login copilot` again to retry\n');
    expect(existsSync(result.file)).toBe(false);
  });

  it('an account without a Copilot seat ends in one line and stores nothing', async () => {
    const result = await login([{ body: { access_token: 'ghu_noSeat' } }], { status: 403, body: { message: 'Resource not accessible by integration' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^agentd login copilot: GitHub authorized the login, but GitHub refused the Copilot token \(HTTP 403\): .*no Copilot seat.*\n$/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(result.file)).toBe(false);
  });

  it('anything but copilot is a usage error', async () => {
    home = makeHome({});
    const result = await runCli(['login', 'gitlab'], daemonEnv(home.home));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('agentd login: cannot log in to "gitlab"; the one login is `agentd login copilot`\n');
  });
});
