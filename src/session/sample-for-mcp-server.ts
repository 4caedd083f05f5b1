import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import type { ModelMessage, UserContentPart } from '../providers/message.js';
import type { Usage } from '../providers/usage.js';
import { budgetExceededMessage } from '../loop/stop-conditions.js';
import type { Session } from './session.js';

type SamplingParams = CreateMessageRequest['params'];

/**
 * Answers an MCP server's `sampling/createMessage` with the session's current model
 * (https://modelcontextprotocol.io/specification/2025-06-18/client/sampling): the
 * server's messages and system prompt only — never the session's history, tools or
 * system prompt — and the text of the answer. Model preferences are hints the spec lets
 * a client ignore; the user picked the session's model. Its cost is the session's: added
 * to its total (and the daemon's), and counted against its budget, which refuses sampling
 * once reached.
 */
export async function sampleForMcpServer(session: Session, params: SamplingParams, signal: AbortSignal): Promise<CreateMessageResult> {
  const budget = session.project.budgetUsd(session.record, session.runOverrides);
  const spent = session.record.totalCostUsd;
  if (budget !== undefined && spent >= budget) throw new Error(`sampling refused: ${budgetExceededMessage(spent, budget)}`);
  const model = session.project.resolveModel(session.record.model);
  const stream = model.model.stream(
    {
      model: model.model.modelId,
      system: params.systemPrompt ? [{ text: params.systemPrompt }] : [],
      messages: params.messages.map(toModelMessage),
      tools: [],
      maxTokens: params.maxTokens,
      ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
      ...(params.stopSequences ? { stopSequences: params.stopSequences } : {}),
    },
    signal,
  );
  let text = '';
  let stopReason: string = 'endTurn';
  let usage: Usage | undefined;
  for await (const event of stream) {
    if (event.type === 'text-delta') text += event.text;
    else if (event.type === 'usage') usage = event.usage;
    else if (event.type === 'error') throw new Error(`the model failed: ${event.error.message}`);
    else if (event.type === 'stop') stopReason = event.reason.unified === 'max_tokens' ? 'maxTokens' : 'endTurn';
  }
  if (usage) await session.addCost(model.price(usage), usage);
  return { role: 'assistant', content: { type: 'text', text }, model: model.ref, stopReason };
}

function toModelMessage(message: SamplingParams['messages'][number]): ModelMessage {
  const blocks = Array.isArray(message.content) ? message.content : [message.content];
  const parts: UserContentPart[] = blocks.map((block) => {
    if (block.type === 'text') return { type: 'text', text: block.text };
    if (block.type === 'image') return { type: 'image', data: block.data, mimeType: block.mimeType };
    return { type: 'text', text: `[${block.type} content is not passed to the model]` };
  });
  if (message.role === 'assistant') {
    return { role: 'assistant', content: parts.map((p) => (p.type === 'text' ? p : { type: 'text', text: '[image]' })) };
  }
  return { role: 'user', content: parts };
}
