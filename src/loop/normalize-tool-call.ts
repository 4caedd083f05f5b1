import { randomUUID } from 'node:crypto';
import type { ToolCallPart } from '../providers/message.js';

/**
 * The name a tool call gets when the model sent none. It is no tool, so the call is
 * answered with an error; it keeps the vendors' name rules (`^[a-zA-Z0-9_-]{1,64}$` for
 * Anthropic and OpenAI, a letter or `_` first for Gemini), so the transcript with the call
 * and its answer can be sent back and the model can try again.
 */
export const UNNAMED_TOOL_CALL = 'unnamed_tool_call';

/** A tool call as a vendor stream or an older stored message may hold it: any field may be missing or of the wrong type. */
export interface LooseToolCall {
  id?: unknown;
  name?: unknown;
  args?: unknown;
  argsError?: unknown;
  providerData?: unknown;
}

/**
 * Makes any tool call well-formed, from any vendor: a string id, a non-empty name, an
 * object of arguments. What was missing or malformed becomes `argsError`, so dispatch
 * answers the call with an argument error the model can act on instead of a step of the
 * loop (token estimation, compaction, dispatch, the next request) failing on it.
 * A call that is already well-formed is returned as it is.
 */
export function normalizeToolCall(call: LooseToolCall): ToolCallPart {
  const problems: string[] = [];
  const id = typeof call.id === 'string' && call.id !== '' ? call.id : `call_${randomUUID()}`;
  const named = typeof call.name === 'string' && call.name !== '';
  if (!named) problems.push('the call has no tool name');
  const objectArgs = isPlainObject(call.args);
  if (!objectArgs && call.args !== undefined) problems.push(`the arguments are not a JSON object: ${preview(call.args)}`);
  const argsError = typeof call.argsError === 'string' && call.argsError !== '' ? call.argsError : problems.length > 0 ? problems.join('; ') : undefined;
  const part: ToolCallPart = {
    type: 'tool_call',
    id,
    name: named ? (call.name as string) : UNNAMED_TOOL_CALL,
    args: objectArgs ? (call.args as Record<string, unknown>) : {},
  };
  if (argsError !== undefined) part.argsError = argsError;
  if (isPlainObject(call.providerData)) part.providerData = call.providerData;
  return part;
}

/** True when the call had to be changed by normalizeToolCall. */
export function isMalformedToolCall(call: LooseToolCall): boolean {
  return (
    typeof call.id !== 'string' ||
    call.id === '' ||
    typeof call.name !== 'string' ||
    call.name === '' ||
    !isPlainObject(call.args) ||
    (call.argsError !== undefined && typeof call.argsError !== 'string') ||
    (call.providerData !== undefined && !isPlainObject(call.providerData))
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
