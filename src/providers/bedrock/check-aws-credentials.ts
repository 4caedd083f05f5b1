import { loadUndici } from '../http/load-undici.js';
import type { AwsIdentity } from './resolve-aws-credentials.js';
import { signAwsRequest } from './sign-aws-request.js';

/** What AWS said about the credentials, without spending tokens. */
export type AwsCredentialsCheck =
  | { kind: 'accepted'; url: string; account: string | undefined }
  | { kind: 'rejected'; url: string; message: string }
  /** A Bedrock API key is valid for Bedrock alone; STS cannot check it. */
  | { kind: 'not-checked'; reason: string };

/**
 * Ask AWS STS who the credentials belong to (GetCallerIdentity, which needs no permission:
 * https://docs.aws.amazon.com/STS/latest/APIReference/API_GetCallerIdentity.html), at the
 * region's STS endpoint or AWS_ENDPOINT_URL_STS (the SDKs' service-endpoint variable,
 * https://docs.aws.amazon.com/sdkref/latest/guide/feature-ss-endpoints.html). Whether the
 * account may use the model shows on the first request. Never throws.
 */
export async function checkAwsCredentials(provider: string, identity: AwsIdentity, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<AwsCredentialsCheck> {
  if (identity.credentials.kind === 'bearer') return { kind: 'not-checked', reason: `a Bedrock API key from ${identity.credentials.from} (AWS checks it on the first request)` };
  const endpoint = env['AWS_ENDPOINT_URL_STS']?.trim() || `https://sts.${identity.region}.amazonaws.com`;
  const url = new URL(endpoint.endsWith('/') ? endpoint : `${endpoint}/`);
  const body = 'Action=GetCallerIdentity&Version=2011-06-15';
  const headers = signAwsRequest({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body,
    service: 'sts',
    region: identity.region,
    credentials: identity.credentials,
  });
  const { request } = await loadUndici();
  try {
    const response = await request(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs), headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    const text = await response.body.text();
    if (response.statusCode >= 200 && response.statusCode <= 299) return { kind: 'accepted', url: url.toString(), account: /<Account>(\d+)<\/Account>/.exec(text)?.[1] };
    // STS answers in XML: <Error><Code>InvalidClientTokenId</Code><Message>…</Message></Error>.
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? 'error';
    const message = /<Message>([^<]+)<\/Message>/.exec(text)?.[1] ?? (text.trim().slice(0, 300) || '(empty body)');
    return { kind: 'rejected', url: url.toString(), message: `${provider}: AWS STS answered ${response.statusCode} ${code} for the credentials from ${identity.credentials.from}: ${message}` };
  } catch (error) {
    const detail = (error as { name?: unknown }).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : error instanceof Error ? error.message : String(error);
    return { kind: 'rejected', url: url.toString(), message: `${provider}: AWS STS at ${url.toString()} could not be reached: ${detail}` };
  }
}
