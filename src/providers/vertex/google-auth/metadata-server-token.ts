import type { AccessToken } from './access-token.js';
import type { MetadataServerCredentials } from './google-credentials.js';
import { requestAccessToken } from './request-access-token.js';

/** The metadata server's name on GCE, GKE and Cloud Run (https://cloud.google.com/compute/docs/metadata/querying-metadata). */
export const DEFAULT_METADATA_HOST = 'metadata.google.internal';

/** `http://metadata.google.internal`, or the host in GCE_METADATA_HOST as gcp-metadata (google-auth-library's) reads it. */
export function metadataServerBaseUrl(env: NodeJS.ProcessEnv): string {
  const host = env['GCE_METADATA_HOST']?.trim();
  return `http://${host !== undefined && host !== '' ? host : DEFAULT_METADATA_HOST}`;
}

/**
 * The default service account's token: GET
 * `/computeMetadata/v1/instance/service-accounts/default/token` with `Metadata-Flavor: Google`
 * (https://cloud.google.com/compute/docs/access/authenticate-workloads#applications).
 */
export async function fetchMetadataServerToken(credentials: MetadataServerCredentials, now: () => number, signal?: AbortSignal): Promise<AccessToken> {
  return requestAccessToken({
    url: `${credentials.baseUrl}/computeMetadata/v1/instance/service-accounts/default/token`,
    method: 'GET',
    headers: { 'Metadata-Flavor': 'Google' },
    credential: credentials.origin,
    now,
    ...(signal !== undefined ? { signal } : {}),
  });
}
