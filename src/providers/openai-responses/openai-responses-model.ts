import { streamHttpModel } from '../http/stream-http-model.js';
import { preconnect } from '../http/keep-alive-agents.js';
import { readyBodyReading } from '../http/post-stream.js';
import type { LanguageModel } from '../language-model.js';
import type { ModelRequest } from '../request.js';
import type { StreamEvent } from '../stream-event.js';
import type { ResponsesRequestBody } from './openai-responses-api-types.js';
import { convertToOpenAIResponsesMessages, OPENAI_RESPONSES_PROTOCOL } from './convert-to-openai-responses-messages.js';
import { classifyOpenAIResponsesHttpError } from './openai-responses-error.js';
import { responsesStreamSchemas } from './openai-responses-stream-schema.js';
import { isOpenAIReasoningModel, openAIResponsesReasoning } from './openai-responses-reasoning.js';
import { createOpenAIResponsesStreamParser } from './parse-openai-responses-stream.js';
import { prepareOpenAIResponsesTools } from './prepare-openai-responses-tools.js';

/** How to reach one model over the Responses API. */
export interface OpenAIResponsesModelOptions {
  /** Provider id from the registry or config (`openai`, `azure`, …). */
  provider: string;
  /** The vendor model id; on Azure, the deployment name. */
  modelId: string;
  /**
   * `https://api.openai.com/v1` for OpenAI (the request goes to `${baseUrl}/responses`); on
   * Azure the resource endpoint, e.g. `https://NAME.openai.azure.com`.
   */
  baseUrl: string;
  /** Sent as `Authorization: Bearer` (OpenAI) or `api-key` (Azure); omitted when undefined. */
  apiKey?: string;
  /** Extra headers (organization, project, gateway auth); they win over the defaults. */
  headers?: Record<string, string>;
  /** Connect, first-byte and idle limits passed to the HTTP layer, in milliseconds. */
  timeouts?: { connectMs?: number; firstByteMs?: number; idleMs?: number };
  /** Most content bytes one response may bring (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
  /**
   * Azure OpenAI. `apiVersion: 'v1'` uses the v1 API, `${baseUrl}/openai/v1/responses`, with no
   * api-version (https://learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle);
   * a dated version such as `2025-04-01-preview` uses `${baseUrl}/openai/responses?api-version=…`
   * (https://learn.microsoft.com/azure/ai-foundry/openai/how-to/responses). Both authenticate
   * with the `api-key` header and take the deployment name as `model`.
   */
  azure?: { apiVersion: string };
  /**
   * Whether the model reasons (sends `reasoning` and `include: ['reasoning.encrypted_content']`).
   * Defaults to a guess from the model id; pass the catalog's `thinking` flag when known.
   */
  reasoning?: boolean;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** A LanguageModel speaking the OpenAI Responses protocol (POST /responses, SSE). */
export class OpenAIResponsesModel implements LanguageModel {
  readonly provider: string;
  readonly modelId: string;
  readonly protocol = OPENAI_RESPONSES_PROTOCOL;
  private readonly options: OpenAIResponsesModelOptions;

  constructor(options: OpenAIResponsesModelOptions) {
    if (options.baseUrl.trim() === '') {
      throw new Error(`provider "${options.provider}": baseUrl is empty; set providers.${options.provider}.baseUrl (e.g. https://api.openai.com/v1)`);
    }
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.options = options;
  }

  /** The endpoint for this provider, OpenAI or Azure. */
  /** Opens the connection the first request will use (only the origin matters), sending nothing. */
  prepare(): void {
    preconnect(this.url());
    readyBodyReading();
    // The stream's schemas, built before the first answer arrives.
    responsesStreamSchemas();
  }

  url(): string {
    const base = trimSlash(this.options.baseUrl);
    const azure = this.options.azure;
    if (azure === undefined) return `${base}/responses`;
    if (azure.apiVersion === 'v1') return `${base}/openai/v1/responses`;
    return `${base}/openai/responses?api-version=${encodeURIComponent(azure.apiVersion)}`;
  }

  /** The exact JSON body for a request (pure; exposed for request-shape tests). */
  body(request: ModelRequest): ResponsesRequestBody {
    const { instructions, input } = convertToOpenAIResponsesMessages(request.system, request.messages);
    const modelId = request.model === '' ? this.modelId : request.model;
    const reasoningModel = this.options.reasoning ?? isOpenAIReasoningModel(modelId);
    const tools = prepareOpenAIResponsesTools(request.tools);
    // The Responses API has no stop sequences; `stopSequences` cannot be honoured here.
    return {
      model: modelId,
      stream: true,
      store: false,
      ...(instructions !== undefined ? { instructions } : {}),
      input,
      ...(tools !== undefined ? { tools } : {}),
      ...(request.maxTokens !== undefined ? { max_output_tokens: request.maxTokens } : {}),
      // Reasoning models reject `temperature`.
      ...(request.temperature !== undefined && !reasoningModel ? { temperature: request.temperature } : {}),
      ...openAIResponsesReasoning(modelId, request.thinking, reasoningModel),
    };
  }

  private headers(): Record<string, string> {
    const auth: Record<string, string> = {};
    if (this.options.apiKey !== undefined) {
      if (this.options.azure !== undefined) auth['api-key'] = this.options.apiKey;
      else auth['authorization'] = `Bearer ${this.options.apiKey}`;
    }
    return { accept: 'text/event-stream', ...auth, ...this.options.headers };
  }

  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent> {
    const context = { provider: this.provider, model: request.model === '' ? this.modelId : request.model };
    return streamHttpModel({
      // A process's first reply: the stream's schemas are built while the request travels, if prepare() did not.
      afterSend: responsesStreamSchemas,
      protocol: OPENAI_RESPONSES_PROTOCOL,
      ...context,
      url: this.url(),
      headers: this.headers(),
      body: () => this.body(request),
      parser: createOpenAIResponsesStreamParser(context),
      classifyError: (status, bodyText, headers) => classifyOpenAIResponsesHttpError(status, bodyText, headers, context),
      secrets: [this.options.apiKey],
      ...(this.options.timeouts !== undefined ? { timeouts: this.options.timeouts } : {}),
      ...(this.options.maxResponseBytes !== undefined ? { maxResponseBytes: this.options.maxResponseBytes } : {}),
      signal,
    });
  }
}
