import { AccessTokenError, type AccessToken } from './access-token.js';
import { fetchAuthorizedUserToken } from './authorized-user-token.js';
import { CachedAccessToken } from './cached-access-token.js';
import { credentialSearchList } from './find-google-credentials.js';
import type { GoogleCredentials } from './google-credentials.js';
import { fetchMetadataServerToken } from './metadata-server-token.js';
import { fetchServiceAccountToken } from './service-account-token.js';

/** How long to wait for a metadata server before concluding there is none (gcp-metadata waits about 3 s). */
const METADATA_TIMEOUT_MS = 3000;

export interface GoogleAccessTokenSourceOptions {
  credentials: GoogleCredentials;
  /** ADC's search, for the missing-credential message when the metadata server does not answer. */
  env: NodeJS.ProcessEnv;
  now?: () => number;
  refreshMarginMs?: number;
}

/**
 * The bearer tokens for one set of Application Default Credentials, cached and refreshed
 * before expiry (CachedAccessToken). One source serves every model of a provider.
 */
export class GoogleAccessTokenSource {
  readonly credentials: GoogleCredentials;
  private readonly cache: CachedAccessToken;

  constructor(options: GoogleAccessTokenSourceOptions) {
    this.credentials = options.credentials;
    const now = options.now ?? Date.now;
    const credentials = options.credentials;
    this.cache = new CachedAccessToken({
      now,
      ...(options.refreshMarginMs !== undefined ? { refreshMarginMs: options.refreshMarginMs } : {}),
      fetch: () => fetchToken(credentials, now, options.env),
    });
  }

  /** A token valid for at least the refresh margin; AccessTokenError when none can be had. */
  token(signal?: AbortSignal): Promise<string> {
    return this.cache.get(signal);
  }
}

async function fetchToken(credentials: GoogleCredentials, now: () => number, env: NodeJS.ProcessEnv): Promise<AccessToken> {
  if (credentials.kind === 'service_account') return fetchServiceAccountToken(credentials, now);
  if (credentials.kind === 'authorized_user') return fetchAuthorizedUserToken(credentials, now);
  try {
    return await fetchMetadataServerToken(credentials, now, AbortSignal.timeout(METADATA_TIMEOUT_MS));
  } catch (error) {
    // No answer at all: not on Google Cloud, and no other credential was found either.
    // A metadata server that answered with an error is reported as it is.
    if (error instanceof AccessTokenError && !error.message.startsWith('could not reach')) throw error;
    throw new AccessTokenError(
      `no Google credentials found: looked for ${credentialSearchList(env)}, which did not answer; run "gcloud auth application-default login", or set GOOGLE_APPLICATION_CREDENTIALS (or providers.<id>.credentialsFile) to a service-account key file`,
      false,
    );
  }
}
