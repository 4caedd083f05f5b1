import type { ToolMessage, ToolResultPart } from '../providers/message.js';
import type { Tool, ToolContext, ToolResult } from '../tools/tool.js';
import { describeToolCall, toolTitle } from '../tools/describe-tool-call.js';
import type { HookDecision } from '../tools/hooks/hook-decision.js';
import { errorResult } from '../tools/tool-error.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ToolCallRequest } from './tool-call-request.js';
import type { LoopEvent } from './loop-event.js';
import { isMalformedToolCall, normalizeToolCall, UNNAMED_TOOL_CALL } from './normalize-tool-call.js';
import { runWithLimit } from './run-with-limit.js';
import { toolResultToParts, toToolCallContent } from './tool-result-content.js';

/** Hooks around every tool call (client-registered or config commands). */
export interface ToolHooks {
  before(call: ToolCallRequest, sessionId: string): Promise<HookDecision>;
  /** May replace the result; returns it unchanged otherwise. */
  after(call: ToolCallRequest, result: ToolResult, sessionId: string): Promise<ToolResult>;
}

/** Everything tool dispatch needs from the session. */
export interface ToolDispatchContext {
  registry: ToolRegistry;
  sessionId: string;
  /** The session's working directory, for the client's follow-along locations. */
  cwd: string;
  /** Why the current agent may not use a tool, or undefined when it may. */
  refusal(tool: Tool): string | undefined;
  /** The permission decision for one call: rules, mode, and the client when it must ask. */
  permit(tool: Tool, args: Record<string, unknown>, call: { id: string; title: string }, signal: AbortSignal): Promise<PermitDecision>;
  /** The context a tool runs with, per call. */
  toolContext(call: ToolCallRequest, signal: AbortSignal, onProgress: ToolContext['onProgress']): ToolContext;
  hooks?: ToolHooks;
  emit(event: LoopEvent): void;
  /** Parallel calls at most (default 8). */
  concurrency?: number;
  /** Per-call time limit (default 120 s). */
  timeoutMs?: number;
  /** True once a steering message is waiting: calls not yet started are skipped. */
  steeringPending(): boolean;
}

/** A permission outcome; a refusal says why, in words the model can act on. */
export type PermitDecision = { allowed: true } | { allowed: false; reason: string };

const TOOL_GRACE_MS = 5_000;

export const SKIPPED_FOR_STEERING = 'Skipped: the user sent a new message before this tool call started.';

/**
 * Runs one assistant message's tool calls and answers every one of them, in call
 * order: unknown tools, bad arguments, refusals, denials, hook blocks, timeouts and
 * crashes all become error results the model can read, never a failed turn. Calls run
 * in parallel up to the limit; a tool marked sequential runs alone.
 */
export async function dispatchToolCalls(
  requested: ToolCallRequest[],
  ctx: ToolDispatchContext,
  signal: AbortSignal,
): Promise<ToolMessage> {
  // A call without a name or with arguments that are no object is answered, not run.
  const calls = requested.map(wellFormed);
  for (const call of calls) announce(call, ctx);
  const results = await runWithLimit(
    calls.map((call) => ({
      sequential: ctx.registry.get(call.name, ctx.sessionId)?.sequential === true,
      run: () => runOne(call, ctx, signal),
    })),
    ctx.concurrency ?? 8,
  );
  return { role: 'tool', content: results };
}

function wellFormed(call: ToolCallRequest): ToolCallRequest {
  if (!isMalformedToolCall(call)) return call;
  const { id, name, args, argsError } = normalizeToolCall(call);
  return { id, name, args, ...(argsError !== undefined ? { argsError } : {}) };
}

function announce(call: ToolCallRequest, ctx: ToolDispatchContext): void {
  const shown = describeToolCall(ctx.registry.get(call.name, ctx.sessionId), call.name, call.args, ctx.cwd);
  ctx.emit({ type: 'tool_call', toolCallId: call.id, name: call.name, ...shown, rawInput: call.args });
}

/** Any step may throw (a broken permissions file, a failing hook): the call still gets an answer. */
async function runOne(call: ToolCallRequest, ctx: ToolDispatchContext, turnSignal: AbortSignal): Promise<ToolResultPart> {
  try {
    return await runChecked(call, ctx, turnSignal);
  } catch (error) {
    return finish(call, ctx, errorResult(error));
  }
}

async function runChecked(call: ToolCallRequest, ctx: ToolDispatchContext, turnSignal: AbortSignal): Promise<ToolResultPart> {
  const fail = (text: string): ToolResultPart => finish(call, ctx, { content: [{ type: 'text', text }], isError: true });
  if (turnSignal.aborted) return fail('Cancelled: the turn was stopped before this tool call started.');
  if (ctx.steeringPending()) return fail(SKIPPED_FOR_STEERING);

  const known = (): string => ctx.registry.list(ctx.sessionId).map((t) => t.tool.name).join(', ') || 'none';
  if (call.name === UNNAMED_TOOL_CALL) {
    return fail(`This tool call could not be run: it has no tool name${call.argsError ? ` (${call.argsError})` : ''}. Send the call again with the name of one of the available tools: ${known()}.`);
  }
  const tool = ctx.registry.get(call.name, ctx.sessionId);
  if (!tool) return fail(`Unknown tool "${call.name}". Available tools: ${known()}.`);
  if (call.argsError) return fail(`The arguments for ${call.name} could not be read (${call.argsError}); send the call again with complete arguments as a JSON object.`);
  const refusal = ctx.refusal(tool);
  if (refusal) return fail(refusal);
  let validation = ctx.registry.validateArgs(call.name, call.args, ctx.sessionId);
  if (!validation.ok) return fail(validation.error);

  if (ctx.hooks) {
    const hook = await ctx.hooks.before({ ...call, args: validation.args }, ctx.sessionId);
    if (hook.decision === 'block') return fail(`Blocked by a hook: ${hook.reason}`);
    if (hook.decision === 'rewrite') {
      validation = ctx.registry.validateArgs(call.name, hook.args, ctx.sessionId);
      if (!validation.ok) return fail(`A hook rewrote the arguments of ${call.name} into invalid ones: ${validation.error}`);
    }
  }
  const args = validation.args;
  const permit = await ctx.permit(tool, args, { id: call.id, title: toolTitle(tool, args) }, turnSignal);
  if (!permit.allowed) return fail(permit.reason);

  // A limit the call declares itself (bash's timeoutMs, a client tool's) gets a few seconds
  // of grace, so the tool reports its own timeout and cleans up before the loop cuts it off.
  const declared = tool.timeoutMs?.(args as never);
  // Infinity: the tool bounds itself (a sub-agent has its own turn limit and budget).
  const timeoutMs = declared !== undefined ? declared + TOOL_GRACE_MS : (ctx.timeoutMs ?? 120_000);
  const controller = new AbortController();
  const onTurnAbort = (): void => controller.abort(turnSignal.reason);
  turnSignal.addEventListener('abort', onTurnAbort, { once: true });
  const timer = Number.isFinite(timeoutMs) ? setTimeout(() => controller.abort(new Error('timeout')), timeoutMs) : undefined;
  ctx.emit({ type: 'tool_call_update', toolCallId: call.id, status: 'in_progress' });
  try {
    const onProgress: ToolContext['onProgress'] = (update) =>
      ctx.emit({ type: 'tool_call_update', toolCallId: call.id, status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text: update.output } }] });
    let result = await Promise.race([
      tool.execute(args as never, ctx.toolContext({ ...call, args }, controller.signal, onProgress)),
      new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true })),
    ]).catch((error: unknown): ToolResult => {
      if (turnSignal.aborted) return { content: [{ type: 'text', text: 'Cancelled: the turn was stopped while this tool ran.' }], isError: true };
      if (controller.signal.aborted) return { content: [{ type: 'text', text: `Timed out after ${timeoutMs} ms; the tool was stopped.` }], isError: true };
      return errorResult(error);
    });
    if (ctx.hooks) result = await ctx.hooks.after({ ...call, args }, result, ctx.sessionId);
    if (result.details?.plan) ctx.emit({ type: 'plan', entries: result.details.plan });
    return finish(call, ctx, result);
  } finally {
    clearTimeout(timer);
    turnSignal.removeEventListener('abort', onTurnAbort);
  }
}

function finish(call: ToolCallRequest, ctx: ToolDispatchContext, result: ToolResult): ToolResultPart {
  ctx.emit({
    type: 'tool_call_update',
    toolCallId: call.id,
    status: result.isError ? 'failed' : 'completed',
    content: toToolCallContent(result),
    rawOutput: result.details ?? null,
  });
  return { type: 'tool_result', toolCallId: call.id, toolName: call.name, content: toolResultToParts(result), ...(result.isError ? { isError: true } : {}) };
}
