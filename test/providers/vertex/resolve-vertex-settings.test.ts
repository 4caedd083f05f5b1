import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveVertexSettings } from '../../../src/providers/vertex/resolve-vertex-settings.js';

let dir: string;
let keyFile: string;
let userFile: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-vertex-settings-'));
  keyFile = path.join(dir, 'key.json');
  fs.writeFileSync(keyFile, JSON.stringify({ type: 'service_account', project_id: 'key-project', private_key: 'unused here', client_email: 'sa@key-project.iam.gserviceaccount.com' }));
  userFile = path.join(dir, 'user.json');
  fs.writeFileSync(userFile, JSON.stringify({ type: 'authorized_user', client_id: 'c', client_secret: 's', refresh_token: 'r', quota_project_id: 'quota-project' }));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('resolveVertexSettings', () => {
  it('takes the project from config, then GOOGLE_CLOUD_PROJECT, then the key file or gcloud quota project', () => {
    const env = { GOOGLE_APPLICATION_CREDENTIALS: keyFile, GOOGLE_CLOUD_PROJECT: 'env-project' };
    expect(resolveVertexSettings('vertex', { type: 'vertex', project: 'config-project' }, env).project).toBe('config-project');
    expect(resolveVertexSettings('vertex', { type: 'vertex' }, env).project).toBe('env-project');
    expect(resolveVertexSettings('vertex', { type: 'vertex' }, { GOOGLE_APPLICATION_CREDENTIALS: keyFile }).project).toBe('key-project');
    expect(resolveVertexSettings('vertex', { type: 'vertex', credentialsFile: userFile }, {}).project).toBe('quota-project');
  });

  it('takes the location from config, then GOOGLE_CLOUD_LOCATION, else global, and the host from the location', () => {
    const env = { GOOGLE_APPLICATION_CREDENTIALS: keyFile };
    expect(resolveVertexSettings('vertex', { type: 'vertex', location: 'us-east5' }, { ...env, GOOGLE_CLOUD_LOCATION: 'europe-west1' })).toMatchObject({
      location: 'us-east5',
      baseUrl: 'https://us-east5-aiplatform.googleapis.com',
    });
    expect(resolveVertexSettings('vertex', { type: 'vertex' }, { ...env, GOOGLE_CLOUD_LOCATION: 'europe-west1' }).location).toBe('europe-west1');
    expect(resolveVertexSettings('vertex', { type: 'vertex' }, env)).toMatchObject({ location: 'global', baseUrl: 'https://aiplatform.googleapis.com' });
    expect(resolveVertexSettings('vertex', { type: 'vertex', baseUrl: 'http://127.0.0.1:9/' }, env).baseUrl).toBe('http://127.0.0.1:9/');
  });

  it('says in one line where to set the project when none is found', () => {
    const env = { HOME: dir, GCE_METADATA_HOST: '127.0.0.1:9' };
    expect(() => resolveVertexSettings('gcp', { type: 'vertex' }, env)).toThrow(
      'provider "gcp" (vertex) needs a Google Cloud project: set providers.gcp.project in config.json or the GOOGLE_CLOUD_PROJECT environment variable (the metadata server at http://127.0.0.1:9 names none)',
    );
    expect(() => resolveVertexSettings('gcp', { type: 'vertex', project: 'p', location: 'US East' }, env)).toThrow(
      'provider "gcp" (vertex): location "US East" is not a Vertex location; use one like "us-east5", "europe-west1" or "global"',
    );
  });
});
