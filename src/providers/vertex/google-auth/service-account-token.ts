import { sign } from 'node:crypto';
import type { AccessToken } from './access-token.js';
import { CLOUD_PLATFORM_SCOPE, type ServiceAccountCredentials } from './google-credentials.js';
import { requestAccessToken } from './request-access-token.js';

/** Lifetime of the assertion, the most Google accepts (https://developers.google.com/identity/protocols/oauth2/service-account#authorizingrequests). */
const ASSERTION_LIFETIME_S = 3600;

/**
 * The JWT bearer grant of RFC 7523 as Google documents it for service accounts: an RS256
 * assertion `{iss: client_email, scope, aud: token_uri, iat, exp}`, signed with the key's
 * private key, POSTed to `token_uri` with `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`
 * (the flow of google-auth-library-nodejs's JWT client and gtoken).
 */
export function serviceAccountAssertion(credentials: ServiceAccountCredentials, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  const header = { alg: 'RS256', typ: 'JWT', ...(credentials.privateKeyId !== undefined ? { kid: credentials.privateKeyId } : {}) };
  const claims = { iss: credentials.clientEmail, scope: CLOUD_PLATFORM_SCOPE, aud: credentials.tokenUri, iat, exp: iat + ASSERTION_LIFETIME_S };
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = sign('RSA-SHA256', Buffer.from(signingInput), credentials.privateKey);
  return `${signingInput}.${signature.toString('base64url')}`;
}

/** A fresh access token for the service account. */
export async function fetchServiceAccountToken(credentials: ServiceAccountCredentials, now: () => number, signal?: AbortSignal): Promise<AccessToken> {
  return requestAccessToken({
    url: credentials.tokenUri,
    method: 'POST',
    form: { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: serviceAccountAssertion(credentials, now()) },
    credential: credentials.origin,
    now,
    ...(signal !== undefined ? { signal } : {}),
  });
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}
