import { ANTHROPIC_MESSAGES_PROTOCOL } from '../anthropic-messages/convert-to-anthropic-messages.js';
import { parseAnthropicMessagesStream } from '../anthropic-messages/parse-anthropic-messages-stream.js';
import { anthropicStreamSchemas } from '../anthropic-messages/anthropic-messages-stream-schema.js';
import { buildGeminiBody } from '../gemini/build-gemini-body.js';
import { GEMINI_PROTOCOL } from '../gemini/convert-to-gemini-messages.js';
import { geminiStreamSchemas } from '../gemini/gemini-stream-schema.js';
import { parseGeminiStream } from '../gemini/parse-gemini-stream.js';
import type { HttpTimeouts } from '../http/post-stream.js';
import type { StreamParser } from '../http/stream-through-parser.js';
import { streamHttpModel } from '../http/stream-http-model.js';
import { toProviderError } from '../http/to-provider-error.js';
import type { LanguageModel } from '../language-model.js';
import { ProviderError } from '../provider-error.js';
import type { ModelRequest } from '../request.js';
import type { StreamEvent } from '../stream-event.js';
import { AccessTokenError } from './google-auth/access-token.js';
import type { GoogleAccessTokenSource } from './google-auth/google-access-token-source.js';
import { buildVertexClaudeBody } from './build-vertex-claude-body.js';
import { vertexPublisher, vertexStreamUrl } from './vertex-endpoint.js';
import { classifyVertexError } from './vertex-error.js';

export interface VertexModelOptions {
  /** Provider id from the registry or config (e.g. `vertex`). */
  provider: string;
  /** A Gemini model (`gemini-2.5-pro`) or a Claude model on Vertex (`claude-sonnet-4-5@20250929`). */
  modelId: string;
  /** API origin without `/v1`, e.g. `https://us-east5-aiplatform.googleapis.com` (see vertexOrigin). */
  baseUrl: string;
  /** The Google Cloud project id. */
  project: string;
  /** The Vertex location, e.g. `us-east5` or `global`. */
  location: string;
  /** Bearer tokens of the provider's Application Default Credentials, shared by its models. */
  tokens: GoogleAccessTokenSource;
  /** Extra headers; they override the defaults of the same name. */
  headers?: Record<string, string>;
  timeouts?: HttpTimeouts;
  /** Most content bytes one response may bring (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
  /** Claude's `max_tokens` when a request sets no `maxTokens`. Default 4096, which every Claude model accepts. */
  maxOutputTokens?: number;
}

/**
 * A model on Google Vertex AI: Gemini over `streamGenerateContent?alt=sse` and Claude over
 * `streamRawPredict`, each with its own wire's body builder and stream parser, authorized
 * with an OAuth bearer token from Application Default Credentials.
 */
export class VertexModel implements LanguageModel {
  readonly provider: string;
  readonly modelId: string;
  /** The wire the model speaks, so history conversion treats it like the vendor's own API. */
  readonly protocol: string;
  private readonly options: VertexModelOptions;

  constructor(options: VertexModelOptions) {
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.protocol = vertexPublisher(options.modelId) === 'anthropic' ? ANTHROPIC_MESSAGES_PROTOCOL : GEMINI_PROTOCOL;
    this.options = options;
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    const model = (request.model !== '' ? request.model : this.modelId).replace(/^models\//, '');
    const context = { provider: this.provider, model };
    const claude = vertexPublisher(model) === 'anthropic';
    const protocol = claude ? ANTHROPIC_MESSAGES_PROTOCOL : GEMINI_PROTOCOL;
    const parser: StreamParser = claude ? parseAnthropicMessagesStream(context) : parseGeminiStream(context);
    const { project, location, tokens } = this.options;
    let token: string;
    try {
      token = await tokens.token(signal);
    } catch (error) {
      yield* parser.fail(tokenError(error, { ...context, protocol, signal }));
      return;
    }
    const errorContext = { ...context, project, location, credential: tokens.credentials.origin };
    yield* streamHttpModel({
      protocol,
      ...context,
      url: vertexStreamUrl({ baseUrl: this.options.baseUrl, project, location, model }),
      headers: this.headers(token),
      body: () => (claude ? buildVertexClaudeBody({ ...request, model }, { defaultMaxTokens: this.options.maxOutputTokens ?? 4096 }) : buildGeminiBody(request)),
      parser,
      // A process's first reply: the stream's schemas are built while the request travels.
      afterSend: claude ? anthropicStreamSchemas : geminiStreamSchemas,
      classifyError: (status, text, headers) => classifyVertexError(errorContext, status, text, headers),
      secrets: [token],
      ...(this.options.timeouts !== undefined ? { timeouts: this.options.timeouts } : {}),
      ...(this.options.maxResponseBytes !== undefined ? { maxResponseBytes: this.options.maxResponseBytes } : {}),
      signal,
    });
  }

  private headers(token: string): Record<string, string> {
    const credentials = this.options.tokens.credentials;
    // gcloud user credentials bill their quota project, as google-auth-library sends it.
    const quotaProject = credentials.kind === 'authorized_user' ? credentials.quotaProjectId : undefined;
    return {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      authorization: `Bearer ${token}`,
      ...(quotaProject !== undefined ? { 'x-goog-user-project': quotaProject } : {}),
      ...this.options.headers,
    };
  }
}

/** A token that could not be had: its one line, as `auth` (or `network` when trying again may help). */
function tokenError(error: unknown, context: { provider: string; model: string; protocol: string; signal: AbortSignal }): ProviderError {
  if (!(error instanceof AccessTokenError) || context.signal.aborted) return toProviderError(error, context);
  return new ProviderError({
    provider: context.provider,
    model: context.model,
    kind: error.retryable ? 'network' : 'auth',
    message: `${context.provider} (vertex): ${error.message}`,
  });
}
