import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkProvidersReach } from '../../../src/cli/doctor/check-providers.js';
import { AgentdConfigSchema, type AgentdConfig } from '../../../src/config/config-schema.js';
import { freePort } from '../../support/free-port.js';
import { startGoogleMetadataServer } from '../../support/google-metadata-server.js';
import type { ReplayServer } from '../../support/replay-server.js';
import { makeTempHome, type TempHome } from './temp-home.js';

// A Vertex provider is checked by asking its credentials for an access token: free, no model called.
let t: TempHome;
let metadata: ReplayServer;
beforeAll(async () => {
  metadata = await startGoogleMetadataServer();
});
afterAll(async () => {
  await metadata.close();
});
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());

function reach(config: unknown, env: NodeJS.ProcessEnv) {
  return checkProvidersReach({ config: AgentdConfigSchema.parse(config) as AgentdConfig, env, paths: t.paths, timeoutMs: 2_000 });
}

const vertexConfig = { providers: { gcp: { type: 'vertex', project: 'agentd-test', location: 'europe-west1' } } };

describe('agentd doctor on a Vertex provider', () => {
  it('names the endpoint, project, location and credential, and gets a token without calling a model', async () => {
    const home = fs.mkdtempSync(path.join(t.home, 'home-'));
    const checks = await reach(vertexConfig, { HOME: home, GCE_METADATA_HOST: new URL(metadata.url).host });
    expect(checks).toEqual([
      {
        id: 'provider:gcp',
        title: 'provider gcp',
        status: 'ok',
        detail: `vertex at https://europe-west1-aiplatform.googleapis.com; project agentd-test, location europe-west1; credentials: the metadata server at ${metadata.url}; an access token from the metadata server at ${metadata.url} for project agentd-test, location europe-west1; Vertex AI offers models per project in Model Garden, not listed`,
      },
    ]);
  });

  it('fails with the one line naming what was looked for when no credential answers', async () => {
    const home = fs.mkdtempSync(path.join(t.home, 'home-'));
    const host = `127.0.0.1:${await freePort()}`;
    const [check] = await reach(vertexConfig, { HOME: home, GCE_METADATA_HOST: host });
    expect(check?.status).toBe('fail');
    expect(check?.detail).toContain(
      `not reached over vertex: no Google credentials found: looked for the GOOGLE_APPLICATION_CREDENTIALS environment variable (unset), gcloud's ${path.join(home, '.config', 'gcloud', 'application_default_credentials.json')} (absent) and the GCE metadata server at http://${host}, which did not answer`,
    );
  });

  it('fails before any request when the project is missing, saying where to set it', async () => {
    const home = fs.mkdtempSync(path.join(t.home, 'home-'));
    const [check] = await reach({ providers: { gcp: { type: 'vertex' } } }, { HOME: home, GCE_METADATA_HOST: new URL(metadata.url).host });
    expect(check).toMatchObject({ status: 'fail', detail: expect.stringContaining('needs a Google Cloud project: set providers.gcp.project in config.json or the GOOGLE_CLOUD_PROJECT environment variable') as unknown });
  });
});
