import { startReplayServer, type ReplayServer } from './replay-server.js';

/**
 * A stand-in for the GCE metadata server on 127.0.0.1: answers the default service
 * account's token path with a fresh token (`token-1`, `token-2`, …) when the request carries
 * `Metadata-Flavor: Google`, as the real one requires, and 403 otherwise.
 */
export async function startGoogleMetadataServer(expiresInSeconds = 3599): Promise<ReplayServer> {
  let issued = 0;
  return startReplayServer({
    respond: (request) => {
      if (request.path !== '/computeMetadata/v1/instance/service-accounts/default/token') return { status: 404, body: 'not found' };
      if (request.headers['metadata-flavor'] !== 'Google') return { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Missing Metadata-Flavor:Google header.' };
      issued++;
      return {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ access_token: `ya29.metadata-token-${issued}`, expires_in: expiresInSeconds, token_type: 'Bearer' }),
      };
    },
  });
}
