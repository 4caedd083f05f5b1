import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveAwsCredentials } from '../../../src/providers/bedrock/resolve-aws-credentials.js';

// The shared files as the AWS CLI writes them
// (https://docs.aws.amazon.com/cli/latest/userguide/cli-configure-files.html): profiles
// named `[name]` in credentials and `[profile name]` in config, `[default]` in both.
let home: string;

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-aws-'));
  fs.mkdirSync(path.join(home, '.aws'));
  fs.writeFileSync(
    path.join(home, '.aws', 'credentials'),
    [
      '[default]',
      'aws_access_key_id = AKIADEFAULT0000EXAMPLE',
      'aws_secret_access_key = defaultSecretKey/EXAMPLEKEY',
      '',
      '# a comment',
      '[work]',
      'aws_access_key_id=ASIAWORK00000EXAMPLE',
      'aws_secret_access_key=workSecret/EXAMPLEKEY',
      'aws_session_token=IQoJb3JpZ2luX2VjEXAMPLE',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(home, '.aws', 'config'),
    ['[default]', 'region = eu-west-1', '', '[profile work]', 'region = us-west-2', 's3 =', '  max_concurrent_requests = 20', '', '[profile keysinconfig]', 'region = ap-northeast-1', 'aws_access_key_id = AKIACONFIG000EXAMPLE', 'aws_secret_access_key = configSecret', ''].join('\n'),
  );
});

afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

describe('resolveAwsCredentials', () => {
  it('reads the default profile and its region when nothing else is set', () => {
    expect(resolveAwsCredentials('bedrock', {}, { HOME: home })).toEqual({
      region: 'eu-west-1',
      credentials: {
        kind: 'sigv4',
        accessKeyId: 'AKIADEFAULT0000EXAMPLE',
        secretAccessKey: 'defaultSecretKey/EXAMPLEKEY',
        from: `profile "default" in ${path.join(home, '.aws', 'credentials')} or ${path.join(home, '.aws', 'config')}`,
      },
    });
  });

  it('reads a named profile with its session token, from AWS_PROFILE or config, and the config region wins', () => {
    const byEnv = resolveAwsCredentials('bedrock', {}, { HOME: home, AWS_PROFILE: 'work' });
    expect(byEnv.region).toBe('us-west-2');
    expect(byEnv.credentials).toMatchObject({ kind: 'sigv4', accessKeyId: 'ASIAWORK00000EXAMPLE', sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE' });
    const byConfig = resolveAwsCredentials('bedrock', { profile: 'work', region: 'eu-central-1' }, { HOME: home, AWS_REGION: 'us-east-2' });
    expect(byConfig.region).toBe('eu-central-1');
    expect(byConfig.credentials).toMatchObject({ accessKeyId: 'ASIAWORK00000EXAMPLE' });
  });

  it('takes keys from a [profile x] section of the config file', () => {
    expect(resolveAwsCredentials('bedrock', { profile: 'keysinconfig' }, { HOME: home })).toMatchObject({
      region: 'ap-northeast-1',
      credentials: { accessKeyId: 'AKIACONFIG000EXAMPLE', secretAccessKey: 'configSecret' },
    });
  });

  it('prefers the environment keys and region over the default profile, but not over a named profile', () => {
    const env = { HOME: home, AWS_ACCESS_KEY_ID: 'AKIAENV00000EXAMPLE', AWS_SECRET_ACCESS_KEY: 'envSecret', AWS_SESSION_TOKEN: 'envToken', AWS_DEFAULT_REGION: 'us-east-1' };
    expect(resolveAwsCredentials('bedrock', {}, env)).toEqual({
      region: 'us-east-1',
      credentials: { kind: 'sigv4', accessKeyId: 'AKIAENV00000EXAMPLE', secretAccessKey: 'envSecret', sessionToken: 'envToken', from: 'the AWS_ACCESS_KEY_ID environment variable' },
    });
    expect(resolveAwsCredentials('bedrock', {}, { ...env, AWS_PROFILE: 'work' }).credentials).toMatchObject({ accessKeyId: 'ASIAWORK00000EXAMPLE' });
  });

  it('uses a Bedrock API key before any other credential', () => {
    expect(resolveAwsCredentials('bedrock', {}, { HOME: home, AWS_BEARER_TOKEN_BEDROCK: 'ABSKexample', AWS_PROFILE: 'work' }).credentials).toEqual({
      kind: 'bearer',
      token: 'ABSKexample',
      from: 'the AWS_BEARER_TOKEN_BEDROCK environment variable',
    });
  });

  it('honours AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE', () => {
    const elsewhere = path.join(home, 'elsewhere');
    fs.writeFileSync(elsewhere, '[default]\naws_access_key_id = AKIAELSEWHEREEXAMPLE\naws_secret_access_key = s\n');
    fs.writeFileSync(`${elsewhere}-config`, '[default]\nregion = sa-east-1\n');
    expect(resolveAwsCredentials('bedrock', {}, { HOME: home, AWS_SHARED_CREDENTIALS_FILE: elsewhere, AWS_CONFIG_FILE: `${elsewhere}-config` })).toMatchObject({
      region: 'sa-east-1',
      credentials: { accessKeyId: 'AKIAELSEWHEREEXAMPLE' },
    });
  });

  it('names everything it looked for when there are no credentials, in one line', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-aws-empty-'));
    try {
      const attempt = (): unknown => resolveAwsCredentials('bedrock', { region: 'us-east-1', profile: 'missing' }, { HOME: empty });
      expect(attempt).toThrow(
        `bedrock: no AWS credentials: set AWS_BEARER_TOKEN_BEDROCK (a Bedrock API key), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with AWS_SESSION_TOKEN for temporary keys), or aws_access_key_id and aws_secret_access_key in the [missing] section of ${path.join(empty, '.aws', 'credentials')} (profile "missing" from providers.bedrock.profile)`,
      );
      expect(() => resolveAwsCredentials('bedrock', {}, { HOME: empty })).toThrow(
        `bedrock: no AWS region: set providers.bedrock.region in config.json, AWS_REGION or AWS_DEFAULT_REGION, or region in the [default] section of ${path.join(empty, '.aws', 'config')}`,
      );
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
