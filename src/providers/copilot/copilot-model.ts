import type { HttpTimeouts } from '../http/post-stream.js';
import type { LanguageModel } from '../language-model.js';
import { OpenAIChatModel } from '../openai-chat/openai-chat-model.js';
import type { OpenAIChatQuirks } from '../openai-chat/openai-chat-quirks.js';
import { COPILOT_CLIENT_HEADERS } from './copilot-endpoints.js';
import type { CopilotTokenSource } from './copilot-token-source.js';

export interface CopilotModelOptions {
  provider: string;
  modelId: string;
  /** Where chat goes when the Copilot token names no endpoint (config `baseUrl`, else the preset's). */
  baseUrl: string;
  tokens: CopilotTokenSource;
  /** Extra headers from config; they win over the client identity headers. */
  headers?: Record<string, string>;
  timeouts?: HttpTimeouts;
  maxResponseBytes?: number;
  quirks?: OpenAIChatQuirks;
}

/**
 * A Copilot model: Chat Completions at the seat's endpoint (`endpoints.api` of the Copilot
 * token, see copilot-endpoints.ts), authenticated per request with the current Copilot token
 * as a bearer, and Copilot's client identity headers.
 */
export function createCopilotModel(options: CopilotModelOptions): LanguageModel {
  const { tokens } = options;
  return new OpenAIChatModel({
    provider: options.provider,
    modelId: options.modelId,
    baseUrl: options.baseUrl,
    headers: { ...COPILOT_CLIENT_HEADERS, ...options.headers },
    timeouts: options.timeouts,
    maxResponseBytes: options.maxResponseBytes,
    quirks: options.quirks,
    connect: async (signal) => {
      const current = await tokens.token(options.modelId, signal);
      return { baseUrl: current.apiUrl ?? options.baseUrl, headers: { authorization: `Bearer ${current.token}` }, secrets: [current.token] };
    },
  });
}
