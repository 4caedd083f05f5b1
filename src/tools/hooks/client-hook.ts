import { InvalidResultError, type HookEvent, type ParamsOf, type RegisterHooksRequest, type ResultOf } from '../../../protocol/index.js';
import { contentBlocksToResult, type WireContentBlock } from '../remote/content-blocks-to-result.js';
import type { RemotePeer } from '../remote/remote-peer.js';
import { resultToContentBlocks } from '../remote/result-to-content-blocks.js';
import type { ToolResult } from '../tool.js';
import type { HookDecision, HookedCall } from './hook-decision.js';
import { matchesToolPattern } from './matches-tool-pattern.js';

/** How long a client gets to answer a hook request when not configured otherwise. */
export const DEFAULT_CLIENT_HOOK_TIMEOUT_MS = 10_000;

/**
 * A client's `hooks/register`: the daemon asks it `hooks/beforeToolCall` and/or
 * `hooks/afterToolCall` for matching calls. A client that does not answer in time
 * blocks the call (a guard that cannot answer must not be skipped silently); a client
 * that answers with an error or goes away is logged and ignored.
 */
export class ClientHook {
  private readonly events: ReadonlySet<HookEvent>;

  constructor(
    readonly peer: RemotePeer,
    private readonly registration: RegisterHooksRequest,
    private readonly options: { timeoutMs: number; log(line: string): void },
  ) {
    this.events = new Set(registration.events);
  }

  matches(event: HookEvent, toolName: string, sessionId: string): boolean {
    if (!this.events.has(event) || this.peer.closed) return false;
    if (this.registration.sessionId !== undefined && this.registration.sessionId !== sessionId) return false;
    return matchesToolPattern(toolName, this.registration.tools);
  }

  async before(call: HookedCall, sessionId: string): Promise<HookDecision> {
    const answer = await this.ask('hooks/beforeToolCall', { sessionId, toolCallId: call.id, name: call.name, arguments: call.args });
    if (answer.kind === 'timeout') return { decision: 'block', reason: `the hook client ${this.peer.label} did not answer within ${this.options.timeoutMs} ms` };
    if (answer.kind !== 'answered') return { decision: 'allow' };
    const { decision, reason, arguments: args } = answer.value;
    if (decision === 'block') return { decision: 'block', reason: reason ?? `the hook client ${this.peer.label} blocked it` };
    if (decision === 'rewrite' && args) return { decision: 'rewrite', args };
    return { decision: 'allow' };
  }

  async after(call: HookedCall, result: ToolResult, sessionId: string): Promise<ToolResult> {
    const answer = await this.ask('hooks/afterToolCall', {
      sessionId,
      toolCallId: call.id,
      name: call.name,
      arguments: call.args,
      result: resultToContentBlocks(result),
    });
    if (answer.kind !== 'answered') return result;
    const replacement = answer.value.result;
    return replacement ? contentBlocksToResult(replacement.content as WireContentBlock[], replacement.isError) : result;
  }

  /** Asks the client; an answer the schema refuses, an error or a closed connection is logged and the call goes on. */
  private async ask<M extends 'hooks/beforeToolCall' | 'hooks/afterToolCall'>(
    method: M,
    params: ParamsOf<M>,
  ): Promise<{ kind: 'answered'; value: ResultOf<M> } | { kind: 'timeout' } | { kind: 'failed' }> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    try {
      return { kind: 'answered', value: await this.peer.request(method, params, { signal: timeout }) };
    } catch (error) {
      if (timeout.aborted && !this.peer.closed) return { kind: 'timeout' };
      const outcome = method === 'hooks/beforeToolCall' ? 'the call goes on' : 'the original result is kept';
      if (error instanceof InvalidResultError) this.options.log(`hook client ${this.peer.label} answered ${method} with an invalid result (${error.problems.join('; ')}); ${outcome}`);
      else this.options.log(`hook client ${this.peer.label}: ${method} failed (${(error as Error).message}); ${outcome}`);
      return { kind: 'failed' };
    }
  }
}
