import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { GOOGLE_TOKEN_URI, type GoogleCredentials } from './google-credentials.js';
import { metadataServerBaseUrl } from './metadata-server-token.js';

export interface FindGoogleCredentialsOptions {
  /** `providers.<id>.credentialsFile` from config; wins over the environment. */
  credentialsFile?: string;
  /** The config path naming it, for errors (e.g. `providers.vertex.credentialsFile in config.json`). */
  credentialsFileFrom?: string;
  env: NodeJS.ProcessEnv;
}

/**
 * gcloud's application-default credentials file: `$CLOUDSDK_CONFIG/application_default_credentials.json`,
 * else `~/.config/gcloud/…` (`%APPDATA%\gcloud\…` on Windows), where google-auth-library looks.
 */
export function gcloudCredentialsPath(env: NodeJS.ProcessEnv): string {
  const configDir = env['CLOUDSDK_CONFIG']?.trim();
  if (configDir !== undefined && configDir !== '') return path.join(configDir, 'application_default_credentials.json');
  const base = process.platform === 'win32' && env['APPDATA'] !== undefined ? env['APPDATA'] : path.join(env['HOME'] ?? os.homedir(), '.config');
  return path.join(base, 'gcloud', 'application_default_credentials.json');
}

/**
 * Application Default Credentials in Google's order: the configured file, the file named by
 * GOOGLE_APPLICATION_CREDENTIALS, gcloud's user credentials file, then the metadata server
 * (whether one answers is known only when a token is asked for). Throws one line naming the
 * file and the fix when a named file is missing or is not a credentials file.
 */
export function findGoogleCredentials(options: FindGoogleCredentialsOptions): GoogleCredentials {
  if (options.credentialsFile !== undefined) {
    return readCredentialsFile(options.credentialsFile, options.credentialsFileFrom ?? 'config');
  }
  const fromEnv = options.env['GOOGLE_APPLICATION_CREDENTIALS']?.trim();
  if (fromEnv !== undefined && fromEnv !== '') return readCredentialsFile(fromEnv, 'GOOGLE_APPLICATION_CREDENTIALS');
  const gcloud = gcloudCredentialsPath(options.env);
  if (fs.existsSync(gcloud)) return readCredentialsFile(gcloud, 'gcloud auth application-default login');
  const baseUrl = metadataServerBaseUrl(options.env);
  return { kind: 'metadata', baseUrl, origin: `the metadata server at ${baseUrl}` };
}

/** What ADC looks for, in order: named when nothing was found. */
export function credentialSearchList(env: NodeJS.ProcessEnv): string {
  return `the GOOGLE_APPLICATION_CREDENTIALS environment variable (unset), gcloud's ${gcloudCredentialsPath(env)} (absent) and the GCE metadata server at ${metadataServerBaseUrl(env)}`;
}

const serviceAccountSchema = z.looseObject({
  type: z.literal('service_account'),
  client_email: z.string().min(1),
  private_key: z.string().min(1),
  private_key_id: z.string().optional(),
  token_uri: z.string().optional(),
  project_id: z.string().optional(),
});

const authorizedUserSchema = z.looseObject({
  type: z.literal('authorized_user'),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  refresh_token: z.string().min(1),
  token_uri: z.string().optional(),
  quota_project_id: z.string().optional(),
});

function readCredentialsFile(file: string, from: string): GoogleCredentials {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new Error(`cannot read the Google credentials file ${file} (from ${from}): ${code}; point it at a service-account key or run "gcloud auth application-default login"`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`the Google credentials file ${file} (from ${from}) is not JSON; download a service-account key again or run "gcloud auth application-default login"`);
  }
  const account = serviceAccountSchema.safeParse(json);
  if (account.success) {
    const { data } = account;
    return {
      kind: 'service_account',
      origin: `the service-account key ${data.client_email} in ${file} (from ${from})`,
      clientEmail: data.client_email,
      privateKey: data.private_key,
      tokenUri: nonEmpty(data.token_uri) ?? GOOGLE_TOKEN_URI,
      ...(nonEmpty(data.private_key_id) !== undefined ? { privateKeyId: data.private_key_id } : {}),
      ...(nonEmpty(data.project_id) !== undefined ? { projectId: data.project_id } : {}),
    };
  }
  const user = authorizedUserSchema.safeParse(json);
  if (user.success) {
    const { data } = user;
    return {
      kind: 'authorized_user',
      origin: `the gcloud user credentials in ${file} (from ${from})`,
      clientId: data.client_id,
      clientSecret: data.client_secret,
      refreshToken: data.refresh_token,
      tokenUri: nonEmpty(data.token_uri) ?? GOOGLE_TOKEN_URI,
      ...(nonEmpty(data.quota_project_id) !== undefined ? { quotaProjectId: data.quota_project_id } : {}),
    };
  }
  const type = (json as { type?: unknown } | null)?.type;
  throw new Error(
    `the Google credentials file ${file} (from ${from}) is not a service-account key or gcloud user credentials (type ${JSON.stringify(type ?? null)}, or a field missing); agentd reads "service_account" and "authorized_user" files`,
  );
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
