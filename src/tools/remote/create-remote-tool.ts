import { z } from 'zod';
import { InvalidResultError, type CallToolResponse, type ToolDefinition } from '../../../protocol/index.js';
import type { Tool, ToolKind, ToolResult } from '../tool.js';
import { contentBlocksToResult, type WireContentBlock } from './content-blocks-to-result.js';
import type { RemotePeer } from './remote-peer.js';

/** How long a client may take to answer `tools/call` when neither the tool nor config says. */
export const DEFAULT_CLIENT_TOOL_TIMEOUT_MS = 120_000;

/** Any object; the real check is ajv against the client's JSON Schema (`jsonSchema`). */
const anyArguments = z.record(z.string(), z.unknown());

/**
 * A tool a client registered with `tools/register`: the model sees the client's name,
 * description and JSON Schema; a call becomes `tools/call` to that client's connection
 * with the tool's timeout and the call's AbortSignal (an abort sends `$/cancel_request`).
 * Every failure (client gone, error answer, timeout, malformed answer) comes back as an
 * error result that says what happened, never as a rejection.
 */
export function createRemoteTool(definition: ToolDefinition, peer: RemotePeer, options: { defaultTimeoutMs?: number } = {}): Tool {
  const { name } = definition;
  const timeoutMs = definition.timeoutMs ?? options.defaultTimeoutMs ?? DEFAULT_CLIENT_TOOL_TIMEOUT_MS;
  const fail = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });
  return {
    name,
    description: definition.description,
    inputSchema: anyArguments,
    jsonSchema: definition.inputSchema,
    kind: toToolKind(definition.kind),
    access: definition.access ?? 'execute',
    timeoutMs: () => timeoutMs,
    title: () => name,
    async execute(args, ctx) {
      const timeout = AbortSignal.timeout(timeoutMs);
      let answer: CallToolResponse;
      try {
        answer = await peer.request(
          'tools/call',
          { sessionId: ctx.sessionId, toolCallId: ctx.toolCallId, name, arguments: args },
          { signal: AbortSignal.any([ctx.signal, timeout]) },
        );
      } catch (error) {
        if (peer.closed) return fail(`The client that provided tool "${name}" (${peer.label}) disconnected before answering; the tool is no longer available.`);
        if (ctx.signal.aborted) return fail(`The call to "${name}" was cancelled.`);
        if (timeout.aborted) return fail(`Tool "${name}" got no answer from its client (${peer.label}) within ${timeoutMs} ms; the call was cancelled.`);
        if (error instanceof InvalidResultError) {
          return fail(`The client that provides tool "${name}" answered tools/call with an invalid result (${error.problems.join('; ')}).`);
        }
        return fail(`The client that provides tool "${name}" answered with an error: ${(error as Error).message}`);
      }
      return contentBlocksToResult(answer.content as WireContentBlock[], answer.isError);
    },
  };
}

/** ACP kinds agentd's tools do not use (`switch_mode`) show as `other`. */
function toToolKind(kind: ToolDefinition['kind']): ToolKind {
  return kind === undefined || kind === 'switch_mode' ? 'other' : kind;
}
