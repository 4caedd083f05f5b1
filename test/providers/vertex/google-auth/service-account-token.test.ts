import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findGoogleCredentials } from '../../../../src/providers/vertex/google-auth/find-google-credentials.js';
import { GoogleAccessTokenSource } from '../../../../src/providers/vertex/google-auth/google-access-token-source.js';
import { startReplayServer, type RecordedRequest, type ReplayResponse, type ReplayServer } from '../../../support/replay-server.js';

// The JWT bearer grant as Google documents it for service accounts
// (https://developers.google.com/identity/protocols/oauth2/service-account#authorizingrequests)
// and google-auth-library-nodejs's JWT client performs it: the token endpoint here checks the
// assertion with the key's public half, as Google's does.
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const clientEmail = 'agentd-test@agentd-test.iam.gserviceaccount.com';

interface Checked {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  signatureValid: boolean;
  grantType: string | null;
}

function checkAssertion(request: RecordedRequest, key: KeyObject): Checked {
  const form = new URLSearchParams(String(request.body));
  const [header = '', claims = '', signature = ''] = (form.get('assertion') ?? '').split('.');
  const decode = (part: string): Record<string, unknown> => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  return {
    header: decode(header),
    claims: decode(claims),
    signatureValid: verify('RSA-SHA256', Buffer.from(`${header}.${claims}`), key, Buffer.from(signature, 'base64url')),
    grantType: form.get('grant_type'),
  };
}

let server: ReplayServer;
let dir: string;
const checked: Checked[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-vertex-sa-'));
  server = await startReplayServer({
    respond: (request): ReplayResponse => {
      const result = checkAssertion(request, publicKey);
      checked.push(result);
      if (!result.signatureValid) {
        return { status: 400, headers: { 'content-type': 'application/json' }, body: '{"error":"invalid_grant","error_description":"Invalid JWT Signature."}' };
      }
      return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ access_token: `ya29.sa-${checked.length}`, expires_in: 3599, token_type: 'Bearer' }) };
    },
  });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function writeKey(name: string, key: KeyObject): string {
  const file = path.join(dir, name);
  const json = {
    type: 'service_account',
    project_id: 'agentd-test',
    private_key_id: 'c0ffee0123456789abcdef0123456789abcdef01',
    private_key: key.export({ type: 'pkcs8', format: 'pem' }),
    client_email: clientEmail,
    client_id: '104729000000000000001',
    token_uri: `${server.url}/token`,
  };
  fs.writeFileSync(file, JSON.stringify(json, null, 2));
  return file;
}

describe('service-account key → JWT assertion → token endpoint', () => {
  it('signs an RS256 assertion the endpoint verifies with the public key, and gets the token', async () => {
    const file = writeKey('key.json', privateKey);
    const credentials = findGoogleCredentials({ env: { GOOGLE_APPLICATION_CREDENTIALS: file } });
    const nowMs = Date.UTC(2026, 10, 20, 9, 0, 0);
    const tokens = new GoogleAccessTokenSource({ credentials, env: {}, now: () => nowMs });

    await expect(tokens.token()).resolves.toBe('ya29.sa-1');

    const request = server.requests.at(-1);
    expect([request?.method, request?.path, request?.headers['content-type']]).toEqual(['POST', '/token', 'application/x-www-form-urlencoded']);
    expect(checked.at(-1)).toEqual({
      header: { alg: 'RS256', typ: 'JWT', kid: 'c0ffee0123456789abcdef0123456789abcdef01' },
      claims: { iss: clientEmail, scope: 'https://www.googleapis.com/auth/cloud-platform', aud: `${server.url}/token`, iat: nowMs / 1000, exp: nowMs / 1000 + 3600 },
      signatureValid: true,
      grantType: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    });
    expect(credentials.kind === 'service_account' ? credentials.projectId : undefined).toBe('agentd-test');
  });

  it('reports a refused assertion in one line naming the key file, the endpoint and the fix', async () => {
    const file = writeKey('revoked.json', other.privateKey);
    const tokens = new GoogleAccessTokenSource({ credentials: findGoogleCredentials({ env: { GOOGLE_APPLICATION_CREDENTIALS: file } }), env: {} });
    const failure = await tokens.token().then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(checked.at(-1)?.signatureValid).toBe(false);
    expect(failure?.message).toBe(
      `${server.url}/token refused an access token for the service-account key ${clientEmail} in ${file} (from GOOGLE_APPLICATION_CREDENTIALS): HTTP 400 invalid_grant: Invalid JWT Signature.; renew the credential (gcloud auth application-default login, or a new service-account key)`,
    );
    expect(failure?.message).not.toContain('\n');
  });
});
