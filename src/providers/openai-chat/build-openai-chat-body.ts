import type { ModelRequest } from '../request.js';
import type { ChatRequestBody } from './openai-chat-api-types.js';
import { convertToOpenAIChatMessages } from './convert-to-openai-chat-messages.js';
import { isReasoningModel, reasoningEffortFor, type OpenAIChatQuirks } from './openai-chat-quirks.js';
import { prepareOpenAIChatTools } from './prepare-openai-chat-tools.js';

/**
 * The POST /chat/completions body for a request (pure). Always streams, asks for the
 * usage chunk unless the quirks say the server rejects `stream_options`, and sends the
 * output cap in the field the server knows. For reasoning models the thinking level
 * becomes `reasoning_effort` and `temperature` is left out.
 */
export function buildOpenAIChatBody(request: ModelRequest, quirks: OpenAIChatQuirks): ChatRequestBody {
  const reasoning = isReasoningModel(quirks, request.model);
  const body: ChatRequestBody = {
    model: request.model,
    messages: convertToOpenAIChatMessages(request.system, request.messages, {
      systemRole: reasoning ? (quirks.reasoningSystemRole ?? 'system') : 'system',
      replayReasoningContent: quirks.replayReasoningContent ?? false,
    }),
    stream: true,
  };
  if (quirks.streamUsage ?? true) body.stream_options = { include_usage: true };
  const tools = prepareOpenAIChatTools(request.tools);
  if (tools !== undefined) body.tools = tools;
  if (request.maxTokens !== undefined) body[quirks.maxTokensField ?? 'max_tokens'] = request.maxTokens;
  if (request.temperature !== undefined && !reasoning) body.temperature = request.temperature;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) body.stop = request.stopSequences;
  const effort = reasoning ? reasoningEffortFor(quirks, request.thinking) : undefined;
  if (effort !== undefined) body.reasoning_effort = effort;
  return body;
}
