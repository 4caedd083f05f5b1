import { buildAnthropicMessagesBody, type AnthropicMessagesBodyOptions } from '../anthropic-messages/build-anthropic-messages-body.js';
import type { AnthropicMessagesBody } from '../anthropic-messages/anthropic-messages-types.js';
import type { ModelRequest } from '../request.js';

/** The Messages API version Vertex AI takes, in the body (https://docs.anthropic.com/en/api/claude-on-vertex-ai). */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/** The Messages body on Vertex: the model is in the URL, not the body, and the version is a body field. */
export type VertexClaudeBody = Omit<AnthropicMessagesBody, 'model'> & { anthropic_version: typeof VERTEX_ANTHROPIC_VERSION };

/** Unified request → the body POSTed to `:streamRawPredict`: Anthropic's body with Vertex's two differences. */
export function buildVertexClaudeBody(request: ModelRequest, options: AnthropicMessagesBodyOptions): VertexClaudeBody {
  const { model: _model, ...body } = buildAnthropicMessagesBody(request, options);
  return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...body };
}
