import type { GoogleAccessTokenSource } from './google-auth/google-access-token-source.js';

/**
 * Whether the provider's credentials yield an access token, asked within `timeoutMs`: the
 * free check of a Vertex setup (no model is called, no tokens spent). Undefined when they do,
 * else the one line saying why not.
 */
export async function checkVertexCredentials(tokens: GoogleAccessTokenSource, timeoutMs: number): Promise<string | undefined> {
  try {
    await tokens.token(AbortSignal.timeout(timeoutMs));
    return undefined;
  } catch (error) {
    if ((error as { name?: unknown }).name === 'TimeoutError') return `no access token from ${tokens.credentials.origin} within ${timeoutMs} ms`;
    return error instanceof Error ? error.message : String(error);
  }
}
