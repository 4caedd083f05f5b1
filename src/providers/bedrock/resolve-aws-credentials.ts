import os from 'node:os';
import path from 'node:path';
import { readAwsIni, type AwsIniSections } from './read-aws-ini.js';

/** How a Bedrock request is authorised. */
export type AwsCredentials =
  /** Access keys, signed with SigV4; `sessionToken` for temporary ones (STS, SSO exports). */
  | { kind: 'sigv4'; accessKeyId: string; secretAccessKey: string; sessionToken?: string; from: string }
  /** A Bedrock API key, sent as `Authorization: Bearer` (https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys.html). */
  | { kind: 'bearer'; token: string; from: string };

/** What config says about the AWS account (providers.<id>.region and .profile). */
export interface AwsSettings {
  region?: string;
  profile?: string;
}

/** Credentials and region, with where each came from. */
export interface AwsIdentity {
  credentials: AwsCredentials;
  region: string;
}

/** No usable credentials or region: the message names everything that was looked at. */
export class AwsCredentialsError extends Error {
  override readonly name = 'AwsCredentialsError';
}

/**
 * Credentials and region as the AWS CLI and SDKs find them
 * (https://docs.aws.amazon.com/sdkref/latest/guide/standardized-credentials.html):
 * AWS_BEARER_TOKEN_BEDROCK (a Bedrock API key) first; then, unless a profile is named
 * (config `profile` or AWS_PROFILE — the SDKs skip the environment keys then), the
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN variables; then the
 * profile's keys in ~/.aws/credentials (`[name]`) or ~/.aws/config (`[profile name]`,
 * `[default]`), whose paths AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE override.
 * Region: config `region`, AWS_REGION, AWS_DEFAULT_REGION, then the profile's `region`.
 */
export function resolveAwsCredentials(provider: string, settings: AwsSettings, env: NodeJS.ProcessEnv): AwsIdentity {
  const home = nonEmpty(env['HOME']) ?? os.homedir();
  const credentialsFile = nonEmpty(env['AWS_SHARED_CREDENTIALS_FILE']) ?? path.join(home, '.aws', 'credentials');
  const configFile = nonEmpty(env['AWS_CONFIG_FILE']) ?? path.join(home, '.aws', 'config');
  const named = settings.profile ?? nonEmpty(env['AWS_PROFILE']);
  const profileName = named ?? 'default';
  const profile = { ...profileSection(readAwsIni(configFile), profileName, true), ...profileSection(readAwsIni(credentialsFile), profileName, false) };

  const region = settings.region ?? nonEmpty(env['AWS_REGION']) ?? nonEmpty(env['AWS_DEFAULT_REGION']) ?? nonEmpty(profile['region']);
  if (region === undefined) {
    throw new AwsCredentialsError(
      `${provider}: no AWS region: set providers.${provider}.region in config.json, AWS_REGION or AWS_DEFAULT_REGION, or region in the [${configHeader(profileName)}] section of ${configFile}`,
    );
  }
  const credentials = findCredentials(env, named, profileName, profile, credentialsFile, configFile);
  if (credentials === undefined) {
    throw new AwsCredentialsError(
      `${provider}: no AWS credentials: set AWS_BEARER_TOKEN_BEDROCK (a Bedrock API key), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY` +
        ` (with AWS_SESSION_TOKEN for temporary keys), or aws_access_key_id and aws_secret_access_key in the [${profileName}] section of ${credentialsFile}` +
        (named !== undefined ? ` (profile "${profileName}" from ${settings.profile !== undefined ? `providers.${provider}.profile` : 'AWS_PROFILE'})` : ''),
    );
  }
  return { credentials, region };
}

function findCredentials(
  env: NodeJS.ProcessEnv,
  named: string | undefined,
  profileName: string,
  profile: Record<string, string>,
  credentialsFile: string,
  configFile: string,
): AwsCredentials | undefined {
  const bearer = nonEmpty(env['AWS_BEARER_TOKEN_BEDROCK']);
  if (bearer !== undefined) return { kind: 'bearer', token: bearer, from: 'the AWS_BEARER_TOKEN_BEDROCK environment variable' };
  if (named === undefined) {
    const accessKeyId = nonEmpty(env['AWS_ACCESS_KEY_ID']);
    const secretAccessKey = nonEmpty(env['AWS_SECRET_ACCESS_KEY']);
    if (accessKeyId !== undefined && secretAccessKey !== undefined) {
      const sessionToken = nonEmpty(env['AWS_SESSION_TOKEN']);
      return { kind: 'sigv4', accessKeyId, secretAccessKey, ...(sessionToken !== undefined ? { sessionToken } : {}), from: 'the AWS_ACCESS_KEY_ID environment variable' };
    }
  }
  const accessKeyId = nonEmpty(profile['aws_access_key_id']);
  const secretAccessKey = nonEmpty(profile['aws_secret_access_key']);
  if (accessKeyId === undefined || secretAccessKey === undefined) return undefined;
  const sessionToken = nonEmpty(profile['aws_session_token']);
  return { kind: 'sigv4', accessKeyId, secretAccessKey, ...(sessionToken !== undefined ? { sessionToken } : {}), from: `profile "${profileName}" in ${credentialsFile} or ${configFile}` };
}

/** A profile's section: `[name]` in the credentials file; `[profile name]` (or `[default]`) in the config file. */
function profileSection(sections: AwsIniSections, name: string, isConfig: boolean): Record<string, string> {
  if (!isConfig) return sections.get(name) ?? {};
  return sections.get(configHeader(name)) ?? (name === 'default' ? sections.get('profile default') : undefined) ?? {};
}

function configHeader(name: string): string {
  return name === 'default' ? 'default' : `profile ${name}`;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
