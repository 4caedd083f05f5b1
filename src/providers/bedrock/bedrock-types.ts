/**
 * The Converse API's request shapes, as far as agentd sends them
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html,
 * ContentBlock, Message, SystemContentBlock, ToolConfiguration, InferenceConfiguration).
 */

/** Image formats the Converse API takes (ImageBlock.format). */
export type BedrockImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

/** An inline image: `source.bytes` is base64 in the JSON body. */
export interface BedrockImageBlock {
  image: { format: BedrockImageFormat; source: { bytes: string } };
}

export interface BedrockTextBlock {
  text: string;
}

export interface BedrockToolUseBlock {
  toolUse: { toolUseId: string; name: string; input: Record<string, unknown> };
}

export interface BedrockToolResultBlock {
  toolResult: { toolUseId: string; content: Array<BedrockTextBlock | BedrockImageBlock>; status?: 'success' | 'error' };
}

/** Reasoning sent back as received: its text with the signature, or the redacted bytes (base64). */
export type BedrockReasoningBlock =
  | { reasoningContent: { reasoningText: { text: string; signature?: string } } }
  | { reasoningContent: { redactedContent: string } };

export type BedrockContentBlock = BedrockTextBlock | BedrockImageBlock | BedrockToolUseBlock | BedrockToolResultBlock | BedrockReasoningBlock;

export interface BedrockMessage {
  role: 'user' | 'assistant';
  content: BedrockContentBlock[];
}

export interface BedrockToolSpec {
  toolSpec: { name: string; description: string; inputSchema: { json: Record<string, unknown> } };
}

/** The body POSTed to `/model/{modelId}/converse-stream` (the model id is in the path). */
export interface BedrockConverseBody {
  messages: BedrockMessage[];
  system?: BedrockTextBlock[];
  toolConfig?: { tools: BedrockToolSpec[] };
  inferenceConfig?: { maxTokens?: number; temperature?: number; stopSequences?: string[] };
  /** Model-specific fields; Claude's extended thinking goes here (`thinking: {type, budget_tokens}`). */
  additionalModelRequestFields?: Record<string, unknown>;
}
