import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AgentdConfigSchema, type AgentdConfig } from '../../../src/config/config-schema.js';
import { checkProviders, checkProvidersReach } from '../../../src/cli/doctor/check-providers.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';
import { makeTempHome, type TempHome } from './temp-home.js';

let t: TempHome;
let home: string;
beforeEach(() => {
  t = makeTempHome();
  // An empty HOME: no ~/.aws of the machine running the tests is read.
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-aws-doctor-'));
});
afterEach(() => {
  t.cleanup();
  fs.rmSync(home, { recursive: true, force: true });
});

function check(config: unknown, env: NodeJS.ProcessEnv): ReturnType<typeof checkProviders> {
  return checkProviders({ config: AgentdConfigSchema.parse(config) as AgentdConfig, env: { HOME: home, ...env }, paths: t.paths });
}

describe('checkProviders for a bedrock provider', () => {
  const config = { providers: { bedrock: { type: 'bedrock', region: 'eu-central-1' } } };

  it('shows the region\'s endpoint and where the credentials come from, never the keys', () => {
    const checks = check(config, { AWS_ACCESS_KEY_ID: 'ASIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret-value-1234', AWS_SESSION_TOKEN: 'token-value-5678' });
    expect(checks).toEqual([
      {
        id: 'provider:bedrock',
        title: 'provider bedrock',
        status: 'ok',
        detail: 'bedrock at https://bedrock-runtime.eu-central-1.amazonaws.com (region eu-central-1); temporary AWS keys from the AWS_ACCESS_KEY_ID environment variable',
      },
    ]);
    expect(JSON.stringify(checks)).not.toMatch(/secret-value|token-value/);
  });

  it('fails without credentials, with the line naming everything that was looked for', () => {
    const [result] = check(config, {});
    expect(result).toMatchObject({ status: 'fail', detail: 'cannot be used: bedrock; no AWS credentials or region found' });
    expect(result?.fix).toMatch(/^bedrock: no AWS credentials: set AWS_BEARER_TOKEN_BEDROCK \(a Bedrock API key\), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
  });
});

describe('agentd doctor reaches a bedrock provider through AWS STS, spending no tokens', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(async () => {
    await server.close();
  });
  const config = { providers: { bedrock: { type: 'bedrock', region: 'us-west-2' } } };
  const keys = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
  const reach = (env: NodeJS.ProcessEnv) =>
    checkProvidersReach({ config: AgentdConfigSchema.parse(config) as AgentdConfig, env: { HOME: home, AWS_ENDPOINT_URL_STS: server.url, ...env }, paths: t.paths, timeoutMs: 2_000 });

  // The GetCallerIdentity answer and error of the STS API reference
  // (https://docs.aws.amazon.com/STS/latest/APIReference/API_GetCallerIdentity.html, "Examples"; CommonErrors).
  it('asks GetCallerIdentity, signed for sts in the region, and names the account', async () => {
    server.enqueue({
      headers: { 'content-type': 'text/xml' },
      body:
        '<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">\n  <GetCallerIdentityResult>\n    <Arn>arn:aws:iam::123456789012:user/Alice</Arn>\n' +
        '    <UserId>AIDACKCEVSQ6C2EXAMPLE</UserId>\n    <Account>123456789012</Account>\n  </GetCallerIdentityResult>\n  <ResponseMetadata>\n' +
        '    <RequestId>01234567-89ab-cdef-0123-456789abcdef</RequestId>\n  </ResponseMetadata>\n</GetCallerIdentityResponse>\n',
    });
    const [result] = await reach(keys);
    expect(result).toMatchObject({ status: 'ok', detail: expect.stringMatching(/; AWS STS accepted the credentials \(account 123456789012\); model access shows on the first request$/) });
    expect(server.requests.at(-1)).toMatchObject({ method: 'POST', path: '/', body: 'Action=GetCallerIdentity&Version=2011-06-15' });
    expect(server.requests.at(-1)?.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-west-2\/sts\/aws4_request, /);
  });

  it('fails when AWS rejects the keys, with AWS\'s words and where the keys came from', async () => {
    server.enqueue({
      status: 403,
      headers: { 'content-type': 'text/xml' },
      body:
        '<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">\n  <Error>\n    <Type>Sender</Type>\n    <Code>InvalidClientTokenId</Code>\n' +
        '    <Message>The security token included in the request is invalid.</Message>\n  </Error>\n  <RequestId>4fa8d7c1-2b1e-4e8a-9d2f-0a1b2c3d4e5f</RequestId>\n</ErrorResponse>\n',
    });
    const [result] = await reach(keys);
    expect(result).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('not reached over bedrock: bedrock: AWS STS answered 403 InvalidClientTokenId for the credentials from the AWS_ACCESS_KEY_ID environment variable: The security token included in the request is invalid.'),
    });
  });

  it('does not send a Bedrock API key to STS', async () => {
    const before = server.requests.length;
    const [result] = await reach({ AWS_BEARER_TOKEN_BEDROCK: 'ABSKexample' });
    expect(result).toMatchObject({ status: 'ok', detail: expect.stringMatching(/; a Bedrock API key from the AWS_BEARER_TOKEN_BEDROCK environment variable \(AWS checks it on the first request\)$/) });
    expect(server.requests.length).toBe(before);
  });
});
