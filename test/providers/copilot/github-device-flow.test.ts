import { afterEach, describe, expect, it } from 'vitest';
import { COPILOT_CLIENT_ID } from '../../../src/providers/copilot/copilot-endpoints.js';
import { pollDeviceToken, requestDeviceCode } from '../../../src/providers/copilot/github-device-flow.js';
import { startGitHubStandIn, type GitHubStandIn, type StandInAnswer } from '../../support/github-stand-in.js';

const deviceCode: StandInAnswer = {
  body: { device_code: '3584d83530557fdd1f46af8289938c8ef79f9dc5', user_code: 'WDJB-MJHT', verification_uri: 'https://github.com/login/device', expires_in: 900, interval: 0 },
};

describe("GitHub's device flow against a loopback stand-in", () => {
  let github: GitHubStandIn | undefined;
  afterEach(async () => {
    await github?.close();
    github = undefined;
  });

  async function login(polls: StandInAnswer[], onSlowDown?: (interval: number) => void): Promise<string> {
    github = await startGitHubStandIn({ deviceCode, polls });
    const signal = new AbortController().signal;
    const code = await requestDeviceCode(github.url, signal);
    expect(code).toEqual({ deviceCode: '3584d83530557fdd1f46af8289938c8ef79f9dc5', userCode: 'WDJB-MJHT', verificationUri: 'https://github.com/login/device', expiresIn: 900, interval: 0 });
    return pollDeviceToken(github.url, code, signal, onSlowDown);
  }

  it('keeps polling while authorization is pending, then returns the token; the requests carry the documented fields', async () => {
    const token = await login([{ body: { error: 'authorization_pending', error_description: 'The authorization request is still pending.' } }, { body: { error: 'authorization_pending' } }, { body: { access_token: 'ghu_granted', token_type: 'bearer', scope: 'read:user' } }]);
    expect(token).toBe('ghu_granted');
    const [start, ...polls] = github!.requests;
    expect(start).toMatchObject({ method: 'POST', path: '/login/device/code', form: { client_id: COPILOT_CLIENT_ID, scope: 'read:user' } });
    expect(start!.headers.accept).toBe('application/json');
    expect(polls).toHaveLength(3);
    for (const poll of polls) {
      expect(poll).toMatchObject({ path: '/login/oauth/access_token', form: { client_id: COPILOT_CLIENT_ID, device_code: '3584d83530557fdd1f46af8289938c8ef79f9dc5', grant_type: 'urn:ietf:params:oauth:grant-type:device_code' } });
    }
  });

  it('slows down when told to: the next poll waits the new interval', async () => {
    const heard: number[] = [];
    const token = await login([{ body: { error: 'slow_down', error_description: 'Too many requests have been made in the same timeframe.', interval: 1 } }, { body: { access_token: 'ghu_patient' } }], (i) => heard.push(i));
    expect(token).toBe('ghu_patient');
    expect(heard).toEqual([1]);
    const polls = github!.requests.filter((r) => r.path === '/login/oauth/access_token');
    expect(polls).toHaveLength(2);
    expect(polls[1]!.at - polls[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it('stops with one line when the code expired', async () => {
    await expect(login([{ body: { error: 'expired_token', error_description: 'This device code has expired.' } }])).rejects.toThrow(
      /^agentd login copilot: the code expired before it was entered; run `agentd login copilot` again$/,
    );
  });

  it('stops with one line when the user declined', async () => {
    await expect(login([{ body: { error: 'authorization_pending' } }, { body: { error: 'access_denied', error_description: 'The authorization request was denied.' } }])).rejects.toThrow(
      /^agentd login copilot: the authorization was declined on GitHub; run `agentd login copilot` again to retry$/,
    );
  });

  it('names an error it does not know, with GitHub\'s description', async () => {
    await expect(login([{ body: { error: 'device_flow_disabled', error_description: 'Device flow is disabled for this app.' } }])).rejects.toThrow(
      'agentd login copilot: GitHub refused the device flow (device_flow_disabled: Device flow is disabled for this app.)',
    );
  });

  it('says when the URL is no GitHub', async () => {
    github = await startGitHubStandIn({});
    await expect(requestDeviceCode(github.url, new AbortController().signal)).rejects.toThrow(/^agentd login copilot: http:\/\/127\.0\.0\.1:\d+\/login\/device\/code answered HTTP 404/);
  });
});
