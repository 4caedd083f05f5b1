import aws4 from 'aws4';
import type { AwsCredentials } from './resolve-aws-credentials.js';

/** A request about to be sent, as far as its signature covers it. */
export interface AwsRequestToSign {
  method: string;
  url: URL;
  /** Headers to send and sign; a fixed `x-amz-date` is kept (the test vectors need it). */
  headers: Record<string, string>;
  body: string;
  /** SigV4 service name: `bedrock` for bedrock-runtime. */
  service: string;
  region: string;
  credentials: AwsCredentials;
}

/**
 * The headers to send: with SigV4 (by aws4, https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html)
 * the request's own headers plus `host`, `x-amz-date`, `x-amz-security-token` for temporary
 * keys, and `authorization`; with a Bedrock API key only `authorization: Bearer …`.
 * Header names come back lower-case.
 */
export function signAwsRequest(request: AwsRequestToSign): Record<string, string> {
  const { credentials } = request;
  if (credentials.kind === 'bearer') return { ...lowerCase(request.headers), authorization: `Bearer ${credentials.token}` };
  const signed = aws4.sign(
    {
      method: request.method,
      host: request.url.host,
      path: `${request.url.pathname}${request.url.search}`,
      service: request.service,
      region: request.region,
      headers: { ...request.headers },
      ...(request.body !== '' ? { body: request.body } : {}),
    },
    {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      ...(credentials.sessionToken !== undefined ? { sessionToken: credentials.sessionToken } : {}),
    },
  );
  return lowerCase(signed.headers);
}

function lowerCase(headers: Record<string, string | number>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) result[name.toLowerCase()] = String(value);
  return result;
}
