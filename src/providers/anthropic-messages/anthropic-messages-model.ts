import { readyBodyReading, type HttpTimeouts } from '../http/post-stream.js';
import { preconnect } from '../http/keep-alive-agents.js';
import { streamHttpModel } from '../http/stream-http-model.js';
import type { LanguageModel } from '../language-model.js';
import type { ModelRequest } from '../request.js';
import type { StreamEvent } from '../stream-event.js';
import { classifyAnthropicMessagesError } from './anthropic-messages-error.js';
import { anthropicStreamSchemas } from './anthropic-messages-stream-schema.js';
import { buildAnthropicMessagesBody } from './build-anthropic-messages-body.js';
import { ANTHROPIC_MESSAGES_PROTOCOL } from './convert-to-anthropic-messages.js';
import { parseAnthropicMessagesStream } from './parse-anthropic-messages-stream.js';

/** The API version this protocol is written against (https://docs.anthropic.com/en/api/versioning). */
export const ANTHROPIC_VERSION = '2023-06-01';

export interface AnthropicMessagesModelOptions {
  /** Provider id from the registry or config (e.g. `anthropic`). */
  provider: string;
  /** The vendor's model id, e.g. `claude-sonnet-4-5`. */
  modelId: string;
  /** Origin of the API, without `/v1`, e.g. `https://api.anthropic.com`. */
  baseUrl: string;
  /** Sent as `x-api-key`; leave undefined when `headers` carry the credentials (e.g. a gateway). */
  apiKey?: string;
  /** Extra headers (e.g. `anthropic-beta`); they override the defaults of the same name. */
  headers?: Record<string, string>;
  timeouts?: HttpTimeouts;
  /** Most content bytes one response may bring (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
  /** `max_tokens` when a request sets no `maxTokens` (the API requires one). Default 4096, which every Claude model accepts. */
  maxOutputTokens?: number;
}

/** A Claude model over the Anthropic Messages API, streamed (https://docs.anthropic.com/en/api/messages). */
export class AnthropicMessagesModel implements LanguageModel {
  readonly provider: string;
  readonly modelId: string;
  readonly protocol = ANTHROPIC_MESSAGES_PROTOCOL;
  private readonly options: AnthropicMessagesModelOptions;

  constructor(options: AnthropicMessagesModelOptions) {
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.options = options;
  }

  /** Opens the connection the first request will use (only the origin matters), sending nothing. */
  prepare(): void {
    preconnect(this.options.baseUrl);
    readyBodyReading();
    // The stream's schemas, built before the first answer arrives.
    anthropicStreamSchemas();
  }

  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent> {
    const model = request.model !== '' ? request.model : this.modelId;
    const context = { provider: this.provider, model };
    return streamHttpModel({
      // A process's first reply: the stream's schemas are built while the request travels, if prepare() did not.
      afterSend: anthropicStreamSchemas,
      protocol: ANTHROPIC_MESSAGES_PROTOCOL,
      ...context,
      url: `${this.options.baseUrl.replace(/\/+$/, '')}/v1/messages`,
      headers: this.headers(),
      body: () => buildAnthropicMessagesBody({ ...request, model }, { defaultMaxTokens: this.options.maxOutputTokens ?? 4096 }),
      parser: parseAnthropicMessagesStream(context),
      classifyError: (status, text, headers) => classifyAnthropicMessagesError(context, status, text, headers),
      secrets: [this.options.apiKey],
      ...(this.options.timeouts !== undefined ? { timeouts: this.options.timeouts } : {}),
      ...(this.options.maxResponseBytes !== undefined ? { maxResponseBytes: this.options.maxResponseBytes } : {}),
      signal,
    });
  }

  private headers(): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'anthropic-version': ANTHROPIC_VERSION,
      ...(this.options.apiKey !== undefined ? { 'x-api-key': this.options.apiKey } : {}),
      ...this.options.headers,
    };
  }
}

