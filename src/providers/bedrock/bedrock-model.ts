import type { HttpTimeouts } from '../http/post-stream.js';
import { streamHttpModel } from '../http/stream-http-model.js';
import type { LanguageModel } from '../language-model.js';
import { ProviderError } from '../provider-error.js';
import type { ModelRequest } from '../request.js';
import type { StreamEvent } from '../stream-event.js';
import { classifyBedrockError, type BedrockErrorContext } from './bedrock-error.js';
import { bedrockEventSchemas } from './bedrock-stream-schema.js';
import { buildBedrockBody } from './build-bedrock-body.js';
import { BEDROCK_PROTOCOL } from './convert-to-bedrock-messages.js';
import { parseBedrockStream } from './parse-bedrock-stream.js';
import type { AwsIdentity } from './resolve-aws-credentials.js';
import { signAwsRequest } from './sign-aws-request.js';

export interface BedrockModelOptions {
  /** Provider id from config (e.g. `bedrock`). */
  provider: string;
  /** A model id or inference profile, e.g. `anthropic.claude-sonnet-4-20250514-v1:0` or `us.anthropic.claude-sonnet-4-20250514-v1:0`. */
  modelId: string;
  /** Endpoint origin; `https://bedrock-runtime.<region>.amazonaws.com` unless config sets another (a VPC endpoint). */
  baseUrl: string;
  /**
   * Credentials and region, resolved for each request (resolveAwsCredentials), so keys
   * rotated in ~/.aws/credentials are picked up; it throws when there are none.
   */
  identity: () => AwsIdentity;
  /** Extra headers; signed with the rest. */
  headers?: Record<string, string>;
  timeouts?: HttpTimeouts;
  /** Most content bytes one response may bring (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
}

/** A model on Amazon Bedrock over the Converse stream API, signed with SigV4 or a Bedrock API key. */
export class BedrockModel implements LanguageModel {
  readonly provider: string;
  readonly modelId: string;
  readonly protocol = BEDROCK_PROTOCOL;
  private readonly options: BedrockModelOptions;

  constructor(options: BedrockModelOptions) {
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.options = options;
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    const model = request.model !== '' ? request.model : this.modelId;
    let identity: AwsIdentity;
    try {
      identity = this.options.identity();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      yield { type: 'error', error: new ProviderError({ kind: 'auth', message, provider: this.provider, model }) };
      return;
    }
    const context: BedrockErrorContext = { provider: this.provider, model, region: identity.region, credentialsFrom: identity.credentials.from };
    const url = new URL(`${this.options.baseUrl.replace(/\/+$/, '')}/model/${encodeURIComponent(model)}/converse-stream`);
    // The signature covers the exact body bytes, so the body is built and serialised once here;
    // postStream serialises the same value again, to the same text.
    let body: unknown;
    let headers: Record<string, string> = {};
    let buildError: unknown;
    try {
      body = buildBedrockBody(request, model);
      headers = signAwsRequest({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', accept: 'application/vnd.amazon.eventstream', ...this.options.headers },
        body: JSON.stringify(body),
        service: 'bedrock',
        region: identity.region,
        credentials: identity.credentials,
      });
    } catch (error) {
      buildError = error;
    }
    const credentials = identity.credentials;
    yield* streamHttpModel({
      protocol: BEDROCK_PROTOCOL,
      provider: this.provider,
      model,
      url: url.toString(),
      headers,
      body: () => {
        if (buildError !== undefined) throw buildError;
        return body;
      },
      parser: parseBedrockStream(context),
      // A process's first reply: the event schemas are built while the request travels.
      afterSend: bedrockEventSchemas,
      classifyError: (status, text, responseHeaders) => classifyBedrockError(context, status, text, responseHeaders),
      secrets: credentials.kind === 'bearer' ? [credentials.token] : [credentials.secretAccessKey, credentials.sessionToken],
      ...(this.options.timeouts !== undefined ? { timeouts: this.options.timeouts } : {}),
      ...(this.options.maxResponseBytes !== undefined ? { maxResponseBytes: this.options.maxResponseBytes } : {}),
      signal,
    });
  }
}
