import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AwsCredentials } from '../../../src/providers/bedrock/resolve-aws-credentials.js';
import { signAwsRequest } from '../../../src/providers/bedrock/sign-aws-request.js';

// The AWS Signature Version 4 test suite
// (https://docs.aws.amazon.com/general/latest/gr/signature-v4-test-suite.html, the
// aws-sig-v4-test-suite folders get-vanilla, get-vanilla-query-order-key-case,
// post-vanilla and post-vanilla-query): credentials AKIDEXAMPLE, region us-east-1,
// service "service", host example.amazonaws.com, X-Amz-Date 20150830T123600Z, and the
// Authorization header each folder's .authz file gives.
const credentials: AwsCredentials = { kind: 'sigv4', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', from: 'the test suite' };
const scope = 'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=';

function sign(method: string, url: string, extra: Partial<Parameters<typeof signAwsRequest>[0]> = {}): Record<string, string> {
  return signAwsRequest({
    method,
    url: new URL(url),
    headers: { 'X-Amz-Date': '20150830T123600Z' },
    body: '',
    service: 'service',
    region: 'us-east-1',
    credentials,
    ...extra,
  });
}

describe('SigV4 through aws4, against the AWS test suite', () => {
  it.each([
    ['get-vanilla', 'GET', 'https://example.amazonaws.com/', '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31'],
    ['get-vanilla-query-order-key-case', 'GET', 'https://example.amazonaws.com/?Param2=value2&Param1=value1', 'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500'],
    ['post-vanilla', 'POST', 'https://example.amazonaws.com/', '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b'],
    ['post-vanilla-query', 'POST', 'https://example.amazonaws.com/?Param1=value1', '28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11'],
  ])('%s', (_name, method, url, signature) => {
    const headers = sign(method, url);
    expect(headers['authorization']).toBe(`${scope}${signature}`);
    expect(headers['host']).toBe('example.amazonaws.com');
    expect(headers['x-amz-date']).toBe('20150830T123600Z');
  });

  it('signs a session token, and the signature changes with it', () => {
    const withToken = sign('POST', 'https://example.amazonaws.com/', { credentials: { ...credentials, sessionToken: 'FQoGZXIvYXdzEXAMPLETOKEN' } });
    expect(withToken['x-amz-security-token']).toBe('FQoGZXIvYXdzEXAMPLETOKEN');
    expect(withToken['authorization']).toMatch(/SignedHeaders=host;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/);
    expect(withToken['authorization']).not.toBe(`${scope}5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b`);
  });

  it('signs the body: a Converse request covers content-type, content-length and the body hash', () => {
    const body = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'Hi' }] }] });
    const headers = sign('POST', 'https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream', {
      headers: { 'X-Amz-Date': '20150830T123600Z', 'content-type': 'application/json' },
      body,
      service: 'bedrock',
    });
    expect(headers['authorization']).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20150830\/us-east-1\/bedrock\/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(headers['content-length']).toBe(String(Buffer.byteLength(body)));
    const other = sign('POST', 'https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream', {
      headers: { 'X-Amz-Date': '20150830T123600Z', 'content-type': 'application/json' },
      body: body.replace('Hi', 'Ho'),
      service: 'bedrock',
    });
    expect(other['authorization']).not.toBe(headers['authorization']);
  });

  it('signs a model id with a colon by its twice-encoded path, as AWS computes it for every service but S3', () => {
    // The canonical URI encodes each segment again (https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html,
    // "CanonicalURI"): `v1:0` is sent as `v1%3A0` and signed as `v1%253A0`. The signature is
    // computed here step by step with node:crypto, independently of aws4.
    const body = '{}';
    const url = 'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream';
    const headers = sign('POST', url, { headers: { 'X-Amz-Date': '20150830T123600Z', 'content-type': 'application/json' }, body, service: 'bedrock' });
    const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
    const hmac = (key: string | Buffer, text: string): Buffer => createHmac('sha256', key).update(text).digest();
    const canonical = [
      'POST',
      '/model/anthropic.claude-3-haiku-20240307-v1%253A0/converse-stream',
      '',
      'content-length:2\ncontent-type:application/json\nhost:bedrock-runtime.us-east-1.amazonaws.com\nx-amz-date:20150830T123600Z\n',
      'content-length;content-type;host;x-amz-date',
      sha256(body),
    ].join('\n');
    const toSign = ['AWS4-HMAC-SHA256', '20150830T123600Z', '20150830/us-east-1/bedrock/aws4_request', sha256(canonical)].join('\n');
    let key = hmac(`AWS4${credentials.kind === 'sigv4' ? credentials.secretAccessKey : ''}`, '20150830');
    for (const part of ['us-east-1', 'bedrock', 'aws4_request']) key = hmac(key, part);
    const signature = createHmac('sha256', key).update(toSign).digest('hex');
    expect(headers['authorization']).toBe(
      `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/bedrock/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-date, Signature=${signature}`,
    );
  });

  it('sends a Bedrock API key as a bearer token, unsigned', () => {
    const headers = sign('POST', 'https://bedrock-runtime.us-east-1.amazonaws.com/', { credentials: { kind: 'bearer', token: 'ABSKQmVkcm9ja0FQSUtleS1leGFtcGxl', from: 'env' } });
    expect(headers).toEqual({ 'x-amz-date': '20150830T123600Z', authorization: 'Bearer ABSKQmVkcm9ja0FQSUtleS1leGFtcGxl' });
  });
});
