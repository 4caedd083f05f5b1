import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findGoogleCredentials, gcloudCredentialsPath } from '../../../../src/providers/vertex/google-auth/find-google-credentials.js';
import { GoogleAccessTokenSource } from '../../../../src/providers/vertex/google-auth/google-access-token-source.js';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server.js';

// gcloud's application_default_credentials.json after `gcloud auth application-default login`,
// refreshed with the refresh-token grant as google-auth-library-nodejs's UserRefreshClient does.
let server: ReplayServer;
let configDir: string;

beforeAll(async () => {
  server = await startReplayServer({
    respond: () => ({ headers: { 'content-type': 'application/json' }, body: '{"access_token":"ya29.user-token","expires_in":3599,"scope":"https://www.googleapis.com/auth/cloud-platform","token_type":"Bearer"}' }),
  });
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-vertex-gcloud-'));
});
afterAll(async () => {
  await server.close();
  fs.rmSync(configDir, { recursive: true, force: true });
});

describe('gcloud user credentials (authorized_user)', () => {
  it('are found in CLOUDSDK_CONFIG and refreshed with the refresh-token grant', async () => {
    const env = { CLOUDSDK_CONFIG: configDir };
    const file = gcloudCredentialsPath(env);
    expect(file).toBe(path.join(configDir, 'application_default_credentials.json'));
    fs.writeFileSync(
      file,
      JSON.stringify({
        account: '',
        client_id: '000000000000-agentdtestclient.apps.googleusercontent.com',
        client_secret: 'agentd-test-client-secret',
        quota_project_id: 'agentd-quota',
        refresh_token: '1//0gTestRefreshToken',
        token_uri: `${server.url}/token`,
        type: 'authorized_user',
        universe_domain: 'googleapis.com',
      }),
    );
    const credentials = findGoogleCredentials({ env });
    expect(credentials).toMatchObject({ kind: 'authorized_user', quotaProjectId: 'agentd-quota', origin: `the gcloud user credentials in ${file} (from gcloud auth application-default login)` });

    await expect(new GoogleAccessTokenSource({ credentials, env }).token()).resolves.toBe('ya29.user-token');
    const request = server.requests.at(-1);
    expect([request?.method, request?.path]).toEqual(['POST', '/token']);
    expect(Object.fromEntries(new URLSearchParams(String(request?.body)))).toEqual({
      grant_type: 'refresh_token',
      client_id: '000000000000-agentdtestclient.apps.googleusercontent.com',
      client_secret: 'agentd-test-client-secret',
      refresh_token: '1//0gTestRefreshToken',
    });
  });

  it('names the file and the fix when a named file is not a credentials file', () => {
    const file = path.join(configDir, 'not-a-key.json');
    fs.writeFileSync(file, '{"type":"external_account"}');
    expect(() => findGoogleCredentials({ env: { GOOGLE_APPLICATION_CREDENTIALS: file } })).toThrow(
      `the Google credentials file ${file} (from GOOGLE_APPLICATION_CREDENTIALS) is not a service-account key or gcloud user credentials (type "external_account", or a field missing); agentd reads "service_account" and "authorized_user" files`,
    );
    const missing = path.join(configDir, 'missing.json');
    expect(() => findGoogleCredentials({ env: {}, credentialsFile: missing, credentialsFileFrom: 'providers.vertex.credentialsFile in config.json' })).toThrow(
      `cannot read the Google credentials file ${missing} (from providers.vertex.credentialsFile in config.json): ENOENT; point it at a service-account key or run "gcloud auth application-default login"`,
    );
  });
});
