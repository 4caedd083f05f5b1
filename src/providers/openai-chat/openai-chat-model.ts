import { readyBodyReading, type HttpTimeouts } from '../http/post-stream.js';
import { preconnect } from '../http/keep-alive-agents.js';
import { ProviderError } from '../provider-error.js';
import { streamHttpModel } from '../http/stream-http-model.js';
import type { LanguageModel } from '../language-model.js';
import type { ModelRequest } from '../request.js';
import type { StreamEvent } from '../stream-event.js';
import type { ChatRequestBody } from './openai-chat-api-types.js';
import { buildOpenAIChatBody } from './build-openai-chat-body.js';
import { classifyOpenAIChatError } from './openai-chat-error.js';
import type { OpenAIChatQuirks } from './openai-chat-quirks.js';
import { createOpenAIChatStreamParser } from './parse-openai-chat-stream.js';
import { resolveReasoningTags } from './resolve-reasoning-tags.js';

export const OPENAI_CHAT_PROTOCOL = 'openai-chat';

/** How to reach one model over Chat Completions. */
export interface OpenAIChatModelOptions {
  /** Provider id from the registry or config (`deepseek`, `lmstudio`, `azure`, …). */
  provider: string;
  /** The vendor's model id. */
  modelId: string;
  /** API root including the version path, e.g. `http://127.0.0.1:1234/v1`; on Azure the resource endpoint. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer` (`api-key` on Azure); omitted when undefined (local servers). */
  apiKey?: string;
  /** Extra headers; they win over the defaults of the same name. */
  headers?: Record<string, string>;
  timeouts?: HttpTimeouts;
  /** Most content bytes one response may bring (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
  /** What this server accepts where servers differ. */
  quirks?: OpenAIChatQuirks;
  /**
   * Azure OpenAI: POST `${baseUrl}/openai/deployments/${deployment}/chat/completions?api-version=…`
   * with an `api-key` header (https://learn.microsoft.com/azure/ai-services/openai/reference#chat-completions).
   */
  azure?: { apiVersion: string; deployment: string };
  /**
   * Where each request goes and how it authenticates, decided just before it is sent (GitHub
   * Copilot: a short-lived token and the endpoint that came with it). Its base URL and headers
   * win over `baseUrl` and the defaults; a ProviderError it throws is the request's failure.
   */
  connect?: (signal: AbortSignal) => Promise<OpenAIChatConnection>;
}

/** What `connect` resolves: the API root, headers for this request, and secrets to keep out of messages. */
export interface OpenAIChatConnection {
  baseUrl: string;
  headers: Record<string, string>;
  secrets: string[];
}

/** A LanguageModel speaking OpenAI Chat Completions (POST /chat/completions, SSE). */
/** The start and end of a reply as servers stream it (role, a delta, the finish, usage), for prepare(). */
const SAMPLE_CHUNK = [
  '{"id":"p","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}',
  '{"id":"p","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{"content":"."},"finish_reason":null}]}',
  '{"id":"p","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
  '{"id":"p","object":"chat.completion.chunk","created":0,"model":"m","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}',
]
  .map((json) => `data: ${json}\n\n`)
  .join('');

let parserReady = false;

/** zod builds the chunk schema's fast path on its first parse: done once per process on a sample, not on a reply's first token. */
function readyParser(): void {
  if (parserReady) return;
  parserReady = true;
  createOpenAIChatStreamParser({ provider: 'prepare', model: 'prepare' }).push(SAMPLE_CHUNK);
}

export class OpenAIChatModel implements LanguageModel {
  readonly provider: string;
  readonly modelId: string;
  readonly protocol = OPENAI_CHAT_PROTOCOL;
  private readonly options: OpenAIChatModelOptions;

  constructor(options: OpenAIChatModelOptions) {
    if (options.baseUrl.trim() === '') {
      throw new Error(`provider "${options.provider}": baseUrl is empty; set providers.${options.provider}.baseUrl (e.g. http://127.0.0.1:1234/v1)`);
    }
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.options = options;
  }

  /** The endpoint this model posts to. */
  url(baseUrl: string = this.options.baseUrl): string {
    const base = baseUrl.replace(/\/+$/, '');
    const azure = this.options.azure;
    if (azure === undefined) return `${base}/chat/completions`;
    return `${base}/openai/deployments/${encodeURIComponent(azure.deployment)}/chat/completions?api-version=${encodeURIComponent(azure.apiVersion)}`;
  }

  /** The exact JSON body for a request (pure; exposed for request-shape tests). */
  body(request: ModelRequest): ChatRequestBody {
    return buildOpenAIChatBody({ ...request, model: request.model === '' ? this.modelId : request.model }, this.options.quirks ?? {});
  }

  prepare(): void {
    // With a connect step (a login that supplies the URL) the endpoint is not known yet.
    if (this.options.connect === undefined) preconnect(this.url());
    readyParser();
    readyBodyReading();
  }

  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent> {
    const connect = this.options.connect;
    if (connect === undefined) return this.streamTo(request, signal, { baseUrl: this.options.baseUrl, headers: {}, secrets: [] });
    return this.connectThenStream(connect, request, signal);
  }

  private async *connectThenStream(connect: NonNullable<OpenAIChatModelOptions['connect']>, request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    let connection: OpenAIChatConnection;
    try {
      connection = await connect(signal);
    } catch (error) {
      const model = request.model === '' ? this.modelId : request.model;
      const failure = signal.aborted
        ? new ProviderError({ kind: 'aborted', provider: this.provider, model, message: `${this.provider}: the request was aborted` })
        : error instanceof ProviderError
          ? error
          : new ProviderError({ kind: 'network', provider: this.provider, model, message: `${this.provider}: ${error instanceof Error ? error.message : String(error)}` });
      yield* createOpenAIChatStreamParser({ provider: this.provider, model }).fail(failure);
      return;
    }
    yield* this.streamTo(request, signal, connection);
  }

  private streamTo(request: ModelRequest, signal: AbortSignal, connection: OpenAIChatConnection): AsyncIterable<StreamEvent> {
    const model = request.model === '' ? this.modelId : request.model;
    const context = { provider: this.provider, model };
    return streamHttpModel({
      protocol: OPENAI_CHAT_PROTOCOL,
      ...context,
      url: this.url(connection.baseUrl),
      headers: { ...this.headers(), ...connection.headers },
      body: () => this.body(request),
      parser: createOpenAIChatStreamParser(context, { reasoningTags: resolveReasoningTags(this.options.quirks?.reasoningTag, model) }),
      classifyError: (status, text, headers) => classifyOpenAIChatError(context, status, text, headers),
      secrets: [this.options.apiKey, ...connection.secrets],
      ...(this.options.timeouts !== undefined ? { timeouts: this.options.timeouts } : {}),
      ...(this.options.maxResponseBytes !== undefined ? { maxResponseBytes: this.options.maxResponseBytes } : {}),
      signal,
      // A process's first reply: the parser is readied while the request travels, if prepare() did not.
      afterSend: readyParser,
    });
  }

  private headers(): Record<string, string> {
    const { apiKey, azure } = this.options;
    const auth: Record<string, string> =
      apiKey === undefined ? {} : azure !== undefined ? { 'api-key': apiKey } : { authorization: `Bearer ${apiKey}` };
    return { 'content-type': 'application/json', accept: 'text/event-stream', ...auth, ...this.options.headers };
  }
}

