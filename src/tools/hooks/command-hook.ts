import { CallToolResponseSchema, type HookEvent } from '../../../protocol/index.js';
import type { AgentdConfig } from '../../config/config-schema.js';
import { contentBlocksToResult, type WireContentBlock } from '../remote/content-blocks-to-result.js';
import { resultToContentBlocks } from '../remote/result-to-content-blocks.js';
import type { ToolResult } from '../tool.js';
import type { HookDecision, HookedCall } from './hook-decision.js';
import { matchesToolPattern } from './matches-tool-pattern.js';
import { runHookCommand, type HookCommandOutcome } from './run-hook-command.js';

/** One entry of config.json `hooks.beforeToolCall` / `hooks.afterToolCall`. */
export type HookConfig = NonNullable<NonNullable<AgentdConfig['hooks']>['beforeToolCall']>[number];

/** A hook command gets this long when its config does not say. */
export const DEFAULT_COMMAND_HOOK_TIMEOUT_MS = 10_000;

export interface CommandHookDeps {
  /** The session's working directory; the command runs there. */
  cwdOf(sessionId: string): string;
  /** Environment for the command (secrets already scrubbed). */
  env: NodeJS.ProcessEnv;
  log(line: string): void;
}

/**
 * A config command hook, after Claude Code's command hooks
 * (https://docs.anthropic.com/en/docs/claude-code/hooks): the call arrives as JSON on
 * stdin (`{event, sessionId, toolCallId, name, arguments, result?}`). Exit 0 allows;
 * its stdout may be `{"arguments": {…}}` (before: run with these) or `{"result": {…}}`
 * (after: replace the result). Exit 2 blocks with stderr as the reason. Any other exit
 * is logged and ignored. Running past the timeout blocks a before-hook.
 */
export class CommandHook {
  private readonly timeoutMs: number;

  constructor(
    private readonly config: HookConfig,
    private readonly event: HookEvent,
    private readonly deps: CommandHookDeps,
  ) {
    this.timeoutMs = config.timeoutMs ?? DEFAULT_COMMAND_HOOK_TIMEOUT_MS;
  }

  matches(toolName: string): boolean {
    return matchesToolPattern(toolName, this.config.tools);
  }

  async before(call: HookedCall, sessionId: string): Promise<HookDecision> {
    const outcome = await this.run(call, sessionId);
    if (outcome.timedOut) return { decision: 'block', reason: `the ${this.describe()} did not finish within ${this.timeoutMs} ms` };
    if (outcome.exitCode === 2) return { decision: 'block', reason: outcome.stderr.trim() || `the ${this.describe()} exited with code 2` };
    if (outcome.exitCode !== 0) {
      this.logFailure(outcome);
      return { decision: 'allow' };
    }
    const answer = this.parseStdout(outcome.stdout);
    const args = answer?.arguments;
    if (args === undefined) return { decision: 'allow' };
    if (typeof args === 'object' && args !== null && !Array.isArray(args)) return { decision: 'rewrite', args: args as Record<string, unknown> };
    this.deps.log(`${this.describe()}: "arguments" in its output must be a JSON object; ignored`);
    return { decision: 'allow' };
  }

  async after(call: HookedCall, result: ToolResult, sessionId: string): Promise<ToolResult> {
    const outcome = await this.run(call, sessionId, result);
    if (outcome.timedOut) {
      // The tool already ran; a slow after-hook cannot undo it, so the result stands.
      this.deps.log(`${this.describe()} did not finish within ${this.timeoutMs} ms; the result is kept`);
      return result;
    }
    if (outcome.exitCode === 2) {
      const reason = outcome.stderr.trim() || `the ${this.describe()} exited with code 2`;
      return { ...result, content: [...result.content, { type: 'text', text: `A hook objected to this result: ${reason}` }] };
    }
    if (outcome.exitCode !== 0) {
      this.logFailure(outcome);
      return result;
    }
    const replacement = this.parseStdout(outcome.stdout)?.result;
    if (replacement === undefined) return result;
    const parsed = CallToolResponseSchema.safeParse(replacement);
    if (!parsed.success) {
      this.deps.log(`${this.describe()}: "result" in its output is not {content: [...], isError?}; ignored`);
      return result;
    }
    return contentBlocksToResult(parsed.data.content as WireContentBlock[], parsed.data.isError);
  }

  private run(call: HookedCall, sessionId: string, result?: ToolResult): Promise<HookCommandOutcome> {
    const input = {
      event: this.event,
      sessionId,
      toolCallId: call.id,
      name: call.name,
      arguments: call.args,
      ...(result ? { result: resultToContentBlocks(result) } : {}),
    };
    let cwd: string;
    try {
      cwd = this.deps.cwdOf(sessionId);
    } catch {
      cwd = process.cwd();
    }
    return runHookCommand(this.config.command, { cwd, input: JSON.stringify(input), timeoutMs: this.timeoutMs, env: this.deps.env });
  }

  /** stdout as a JSON object, when it is one; plain text output is fine and ignored. */
  private parseStdout(stdout: string): Record<string, unknown> | undefined {
    const text = stdout.trim();
    if (!text.startsWith('{')) return undefined;
    try {
      const value = JSON.parse(text) as unknown;
      return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
    } catch (error) {
      this.deps.log(`${this.describe()} printed invalid JSON (${(error as Error).message}); ignored`);
      return undefined;
    }
  }

  private logFailure(outcome: HookCommandOutcome): void {
    const why = outcome.spawnError ? `could not start: ${outcome.spawnError}` : `exited with code ${outcome.exitCode ?? 'null (killed)'}`;
    const stderr = outcome.stderr.trim();
    this.deps.log(`${this.describe()} ${why}${stderr ? `: ${stderr}` : ''}; the call goes on`);
  }

  private describe(): string {
    return `${this.event} hook "${this.config.command}"`;
  }
}
