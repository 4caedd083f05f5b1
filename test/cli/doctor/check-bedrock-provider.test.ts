import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentdConfigSchema, type AgentdConfig } from '../../../src/config/config-schema.js';
import { checkProviders } from '../../../src/cli/doctor/check-providers.js';
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
