import { z } from 'zod';
import { loadUndici } from '../http/load-undici.js';
import { COPILOT_CLIENT_ID, COPILOT_SCOPE } from './copilot-endpoints.js';

/**
 * GitHub's OAuth device flow, as documented at
 * https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps#device-flow:
 * `POST <github>/login/device/code` gives a user code to enter at a verification URL; then
 * `POST <github>/login/oauth/access_token` with grant type
 * `urn:ietf:params:oauth:grant-type:device_code` is polled no faster than `interval` seconds
 * until the user has approved. Errors come as HTTP 200 with an `error` field:
 * `authorization_pending` (keep polling), `slow_down` (add 5 seconds; the answer carries the
 * new interval), `expired_token` (the code ran out), `access_denied` (the user declined).
 */

/** What the user is shown and the flow polls with. */
export interface DeviceCode {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  /** Seconds until the codes expire. */
  expiresIn: number;
  /** Least seconds between polls. */
  interval: number;
}

const deviceCodeSchema = z.object({
  device_code: z.string().min(1),
  user_code: z.string().min(1),
  verification_uri: z.string().min(1),
  expires_in: z.number().nonnegative(),
  interval: z.number().nonnegative(),
});

const tokenAnswerSchema = z.object({
  access_token: z.string().min(1).optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
  interval: z.number().nonnegative().optional(),
});

const jsonHeaders = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };

async function postForm(url: string, form: Record<string, string>, signal: AbortSignal): Promise<unknown> {
  const { request } = await loadUndici();
  let status: number;
  let text: string;
  try {
    const response = await request(url, { method: 'POST', headers: jsonHeaders, body: new URLSearchParams(form).toString(), signal });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    throw new Error(`agentd login copilot: could not reach ${url} (${error instanceof Error ? error.message : String(error)}); check the network or --github-url`);
  }
  if (status < 200 || status > 299) throw new Error(`agentd login copilot: ${url} answered HTTP ${status}: ${text.trim().slice(0, 200) || '(empty body)'}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`agentd login copilot: ${url} answered something that is not JSON; check --github-url`);
  }
}

/** Ask GitHub for a device code and the URL where the user enters it. */
export async function requestDeviceCode(githubUrl: string, signal: AbortSignal): Promise<DeviceCode> {
  const url = `${githubUrl.replace(/\/+$/, '')}/login/device/code`;
  const parsed = deviceCodeSchema.safeParse(await postForm(url, { client_id: COPILOT_CLIENT_ID, scope: COPILOT_SCOPE }, signal));
  if (!parsed.success) throw new Error(`agentd login copilot: ${url} did not answer with a device code; check --github-url`);
  const d = parsed.data;
  return { deviceCode: d.device_code, userCode: d.user_code, verificationUri: d.verification_uri, expiresIn: d.expires_in, interval: d.interval };
}

/**
 * Poll until the user approves and return the OAuth token; throws one line when the code
 * expires, the user declines or GitHub refuses the request. `onSlowDown` hears each new interval.
 */
export async function pollDeviceToken(
  githubUrl: string,
  code: DeviceCode,
  signal: AbortSignal,
  onSlowDown: (intervalSeconds: number) => void = () => {},
): Promise<string> {
  const url = `${githubUrl.replace(/\/+$/, '')}/login/oauth/access_token`;
  const deadline = Date.now() + code.expiresIn * 1000;
  let interval = code.interval;
  while (true) {
    await sleep(interval * 1000, signal);
    const form = { client_id: COPILOT_CLIENT_ID, device_code: code.deviceCode, grant_type: 'urn:ietf:params:oauth:grant-type:device_code' };
    const parsed = tokenAnswerSchema.safeParse(await postForm(url, form, signal));
    if (!parsed.success) throw new Error(`agentd login copilot: ${url} answered something that is not a token answer; check --github-url`);
    const answer = parsed.data;
    if (answer.access_token !== undefined) return answer.access_token;
    switch (answer.error) {
      case 'authorization_pending':
        break;
      case 'slow_down':
        interval = answer.interval ?? interval + 5;
        onSlowDown(interval);
        break;
      case 'expired_token':
        throw new Error('agentd login copilot: the code expired before it was entered; run `agentd login copilot` again');
      case 'access_denied':
        throw new Error('agentd login copilot: the authorization was declined on GitHub; run `agentd login copilot` again to retry');
      default:
        throw new Error(`agentd login copilot: GitHub refused the device flow (${answer.error ?? 'no token and no error'}${answer.error_description ? `: ${answer.error_description}` : ''})`);
    }
    if (Date.now() > deadline) throw new Error('agentd login copilot: the code expired before it was entered; run `agentd login copilot` again');
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('agentd login copilot: cancelled'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('agentd login copilot: cancelled'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
