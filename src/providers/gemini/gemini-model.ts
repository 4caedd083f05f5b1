import { readyBodyReading, type HttpTimeouts } from '../http/post-stream.js';
import { preconnect } from '../http/keep-alive-agents.js';
import { streamHttpModel } from '../http/stream-http-model.js';
import type { LanguageModel } from '../language-model.js';
import type { ModelRequest } from '../request.js';
import type { StreamEvent } from '../stream-event.js';
import { buildGeminiBody } from './build-gemini-body.js';
import { GEMINI_PROTOCOL } from './convert-to-gemini-messages.js';
import { classifyGeminiError } from './gemini-error.js';
import { geminiStreamSchemas } from './gemini-stream-schema.js';
import { parseGeminiStream } from './parse-gemini-stream.js';

export interface GeminiModelOptions {
  /** Provider id from the registry or config (e.g. `gemini`). */
  provider: string;
  /** The vendor's model id, e.g. `gemini-2.5-flash` (a leading `models/` is accepted). */
  modelId: string;
  /** Origin of the API, without `/v1beta`, e.g. `https://generativelanguage.googleapis.com`. */
  baseUrl: string;
  /** Sent as `x-goog-api-key`, never in the URL (URLs end up in logs and proxies). */
  apiKey?: string;
  /** Extra headers; they override the defaults of the same name. */
  headers?: Record<string, string>;
  timeouts?: HttpTimeouts;
  /** Most content bytes one response may bring (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
}

/** A Gemini model over the Gemini API's `streamGenerateContent` with `alt=sse` (https://ai.google.dev/api/generate-content). */
export class GeminiModel implements LanguageModel {
  readonly provider: string;
  readonly modelId: string;
  readonly protocol = GEMINI_PROTOCOL;
  private readonly options: GeminiModelOptions;

  constructor(options: GeminiModelOptions) {
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.options = options;
  }

  /** Opens the connection the first request will use (only the origin matters), sending nothing. */
  prepare(): void {
    preconnect(this.options.baseUrl);
    readyBodyReading();
    // The stream's schemas, built before the first answer arrives.
    geminiStreamSchemas();
  }

  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent> {
    const model = (request.model !== '' ? request.model : this.modelId).replace(/^models\//, '');
    const context = { provider: this.provider, model };
    return streamHttpModel({
      // A process's first reply: the stream's schemas are built while the request travels, if prepare() did not.
      afterSend: geminiStreamSchemas,
      protocol: GEMINI_PROTOCOL,
      ...context,
      url: `${this.options.baseUrl.replace(/\/+$/, '')}/v1beta/models/${encodeURIComponent(model)}:streamGenerateContent?alt=sse`,
      headers: this.headers(),
      body: () => buildGeminiBody(request),
      parser: parseGeminiStream(context),
      classifyError: (status, text, headers) => classifyGeminiError(context, status, text, headers),
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
      ...(this.options.apiKey !== undefined ? { 'x-goog-api-key': this.options.apiKey } : {}),
      ...this.options.headers,
    };
  }
}

