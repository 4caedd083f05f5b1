import type { HttpTimeouts } from '../http/post-stream.js';
import type { LanguageModel } from '../language-model.js';
import { ProviderError } from '../provider-error.js';
import type { StreamEvent } from '../stream-event.js';
import { OPENAI_CHAT_PROTOCOL, OpenAIChatModel } from '../openai-chat/openai-chat-model.js';
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
 * as a bearer, and Copilot's client identity headers. When the chat endpoint refuses the token
 * (401/403), it is forgotten, so the next request exchanges a fresh one.
 */
export function createCopilotModel(options: CopilotModelOptions): LanguageModel {
  const { tokens } = options;
  // One chat model per request, so each knows which token it sent.
  const chatWith = (onToken: (token: string) => void): OpenAIChatModel =>
    new OpenAIChatModel({
      provider: options.provider,
      modelId: options.modelId,
      baseUrl: options.baseUrl,
      headers: { ...COPILOT_CLIENT_HEADERS, ...options.headers },
      timeouts: options.timeouts,
      maxResponseBytes: options.maxResponseBytes,
      quirks: options.quirks,
      connect: async (signal) => {
        const current = await tokens.token(options.modelId, signal);
        onToken(current.token);
        return { baseUrl: current.apiUrl ?? options.baseUrl, headers: { authorization: `Bearer ${current.token}` }, secrets: [current.token] };
      },
    });
  return {
    provider: options.provider,
    modelId: options.modelId,
    protocol: OPENAI_CHAT_PROTOCOL,
    async *stream(request, signal): AsyncGenerator<StreamEvent> {
      let sent: string | undefined;
      for await (const event of chatWith((token) => (sent = token)).stream(request, signal)) {
        // Only a refusal by the chat endpoint (a token was sent); the exchange's own failures say what to do already.
        if (event.type === 'error' && event.error.kind === 'auth' && sent !== undefined) {
          tokens.invalidate(sent);
          yield { type: 'error', error: refused(event.error) };
        } else yield event;
      }
    },
  };
}

/** A 401/403 of the chat endpoint, saying what happens next and what to do if it repeats. */
function refused(error: ProviderError): ProviderError {
  return new ProviderError({
    kind: error.kind,
    provider: error.provider,
    ...(error.model !== undefined ? { model: error.model } : {}),
    ...(error.status !== undefined ? { status: error.status } : {}),
    midStream: error.midStream,
    message: `${error.message} (Copilot refused its token; the next request gets a new one; if this repeats, run \`agentd login copilot\` again or check that the seat may use this model)`,
  });
}
