import { readyBodyReading, type HttpTimeouts } from '../http/post-stream.js';
import { preconnect } from '../http/keep-alive-agents.js';
import { streamHttpModel } from '../http/stream-http-model.js';
import type { LanguageModel } from '../language-model.js';
import type { ModelRequest } from '../request.js';
import type { StreamEvent } from '../stream-event.js';
import { buildCohereBody } from './build-cohere-body.js';
import { classifyCohereError } from './cohere-error.js';
import { cohereStreamSchemas } from './cohere-stream-schema.js';
import { CohereToolNames } from './cohere-tool-names.js';
import type { CohereChatBody } from './cohere-types.js';
import { COHERE_PROTOCOL } from './convert-to-cohere-messages.js';
import { parseCohereStream } from './parse-cohere-stream.js';

export interface CohereModelOptions {
  /** Provider id from the registry or config (e.g. `cohere`). */
  provider: string;
  /** The vendor's model id, e.g. `command-a-03-2025`. */
  modelId: string;
  /** Origin of the API, without `/v2`, e.g. `https://api.cohere.com`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; leave undefined when `headers` carry the credentials. */
  apiKey?: string;
  /** Extra headers; they override the defaults of the same name. */
  headers?: Record<string, string>;
  timeouts?: HttpTimeouts;
  /** Most content bytes one response may bring (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
}

/** A Cohere Command model over the Chat API v2, streamed (https://docs.cohere.com/reference/chat-stream). */
export class CohereModel implements LanguageModel {
  readonly provider: string;
  readonly modelId: string;
  readonly protocol = COHERE_PROTOCOL;
  private readonly options: CohereModelOptions;

  constructor(options: CohereModelOptions) {
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.options = options;
  }

  /** The exact JSON body for a request (pure; exposed for request-shape tests). */
  body(request: ModelRequest): CohereChatBody {
    return buildCohereBody({ ...request, model: request.model !== '' ? request.model : this.modelId }, new CohereToolNames());
  }

  /** Opens the connection the first request will use (only the origin matters), sending nothing. */
  prepare(): void {
    preconnect(this.options.baseUrl);
    readyBodyReading();
    // The stream's schemas, built before the first answer arrives.
    cohereStreamSchemas();
  }

  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent> {
    const model = request.model !== '' ? request.model : this.modelId;
    const context = { provider: this.provider, model };
    // One spelling of the tool names per request: the body uses it, the parser reads calls back through it.
    const names = new CohereToolNames();
    return streamHttpModel({
      // A process's first reply: the stream's schemas are built while the request travels, if prepare() did not.
      afterSend: cohereStreamSchemas,
      protocol: COHERE_PROTOCOL,
      ...context,
      url: `${this.options.baseUrl.replace(/\/+$/, '')}/v2/chat`,
      headers: this.headers(),
      body: () => buildCohereBody({ ...request, model }, names),
      parser: parseCohereStream(context, names),
      classifyError: (status, text, headers) => classifyCohereError(context, status, text, headers),
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
      ...(this.options.apiKey !== undefined ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
      ...this.options.headers,
    };
  }
}
