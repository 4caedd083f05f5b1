import type { AccessToken } from './access-token.js';
import type { AuthorizedUserCredentials } from './google-credentials.js';
import { requestAccessToken } from './request-access-token.js';

/**
 * The refresh-token grant of RFC 6749 §6 with gcloud's user credentials, as
 * google-auth-library-nodejs's UserRefreshClient does it: `grant_type=refresh_token`,
 * `client_id`, `client_secret`, `refresh_token` POSTed to the token endpoint.
 */
export async function fetchAuthorizedUserToken(credentials: AuthorizedUserCredentials, now: () => number, signal?: AbortSignal): Promise<AccessToken> {
  return requestAccessToken({
    url: credentials.tokenUri,
    method: 'POST',
    form: {
      grant_type: 'refresh_token',
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      refresh_token: credentials.refreshToken,
    },
    credential: credentials.origin,
    now,
    ...(signal !== undefined ? { signal } : {}),
  });
}
