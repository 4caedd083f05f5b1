import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findGoogleCredentials, gcloudCredentialsPath } from '../../../../src/providers/vertex/google-auth/find-google-credentials.js';
import { GoogleAccessTokenSource } from '../../../../src/providers/vertex/google-auth/google-access-token-source.js';
import { freePort } from '../../../support/free-port.js';
import { startGoogleMetadataServer } from '../../../support/google-metadata-server.js';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server.js';

let metadata: ReplayServer;
let home: string;

beforeAll(async () => {
  metadata = await startGoogleMetadataServer(3600);
  // An empty home: no gcloud file, so ADC falls through to the metadata server.
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-vertex-home-'));
});
afterAll(async () => {
  await metadata.close();
  fs.rmSync(home, { recursive: true, force: true });
});

/** The environment of a GCE VM whose metadata server is the loopback stand-in (as gcp-metadata reads GCE_METADATA_HOST). */
function gceEnv(): NodeJS.ProcessEnv {
  return { HOME: home, GCE_METADATA_HOST: new URL(metadata.url).host };
}

describe('the metadata server (GCE_METADATA_HOST)', () => {
  it('is the credential when no file is found, and is asked with Metadata-Flavor: Google', async () => {
    const credentials = findGoogleCredentials({ env: gceEnv() });
    expect(credentials).toEqual({ kind: 'metadata', baseUrl: metadata.url, origin: `the metadata server at ${metadata.url}` });
    const before = metadata.requests.length;
    const token = await new GoogleAccessTokenSource({ credentials, env: gceEnv() }).token();
    expect(token).toMatch(/^ya29\.metadata-token-\d+$/);
    const request = metadata.requests[before];
    expect([request?.method, request?.path, request?.headers['metadata-flavor']]).toEqual(['GET', '/computeMetadata/v1/instance/service-accounts/default/token', 'Google']);
  });

  it('names everything it looked for in one line when nothing answers', async () => {
    const env = { HOME: home, GCE_METADATA_HOST: `127.0.0.1:${await freePort()}` };
    const failure = await new GoogleAccessTokenSource({ credentials: findGoogleCredentials({ env }), env }).token().then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toBe(
      `no Google credentials found: looked for the GOOGLE_APPLICATION_CREDENTIALS environment variable (unset), gcloud's ${gcloudCredentialsPath(env)} (absent) and the GCE metadata server at http://${env.GCE_METADATA_HOST}, which did not answer; run "gcloud auth application-default login", or set GOOGLE_APPLICATION_CREDENTIALS (or providers.<id>.credentialsFile) to a service-account key file`,
    );
  });
});

describe('the cached token', () => {
  it('is reused until five minutes before it expires, then refreshed', async () => {
    let now = Date.UTC(2026, 10, 20, 9, 0, 0);
    const tokens = new GoogleAccessTokenSource({ credentials: findGoogleCredentials({ env: gceEnv() }), env: gceEnv(), now: () => now });
    const before = metadata.requests.length;
    const first = await tokens.token();
    now += 54 * 60_000; // 6 minutes left of 60
    expect(await tokens.token()).toBe(first);
    expect(metadata.requests.length - before).toBe(1);
    now += 2 * 60_000; // 4 minutes left: inside the margin
    const second = await tokens.token();
    expect(second).not.toBe(first);
    expect(metadata.requests.length - before).toBe(2);
  });

  it('is fetched once for many concurrent requests', async () => {
    const tokens = new GoogleAccessTokenSource({ credentials: findGoogleCredentials({ env: gceEnv() }), env: gceEnv() });
    const before = metadata.requests.length;
    const all = await Promise.all(Array.from({ length: 8 }, () => tokens.token()));
    expect(new Set(all).size).toBe(1);
    expect(metadata.requests.length - before).toBe(1);
  });

  it('is not cached when the fetch fails: the next request asks again', async () => {
    let calls = 0;
    const flaky = await startReplayServer({
      respond: () => {
        calls++;
        return calls === 1
          ? { status: 503, headers: { 'content-type': 'text/plain' }, body: 'unavailable' }
          : { headers: { 'content-type': 'application/json' }, body: '{"access_token":"ya29.after-retry","expires_in":3599,"token_type":"Bearer"}' };
      },
    });
    try {
      const env = { HOME: home, GCE_METADATA_HOST: new URL(flaky.url).host };
      const tokens = new GoogleAccessTokenSource({ credentials: findGoogleCredentials({ env }), env });
      await expect(tokens.token()).rejects.toMatchObject({ retryable: true, message: expect.stringContaining('HTTP 503') as unknown });
      await expect(tokens.token()).resolves.toBe('ya29.after-retry');
    } finally {
      await flaky.close();
    }
  });
});
