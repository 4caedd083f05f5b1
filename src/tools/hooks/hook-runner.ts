import type { AgentdConfig } from '../../config/config-schema.js';
import type { RegisterHooksRequest } from '../../../protocol/index.js';
import type { RemotePeer } from '../remote/remote-peer.js';
import { scrubEnv } from '../shell/scrub-env.js';
import type { ToolResult } from '../tool.js';
import { ClientHook, DEFAULT_CLIENT_HOOK_TIMEOUT_MS } from './client-hook.js';
import { CommandHook, type CommandHookDeps } from './command-hook.js';
import type { HookDecision, HookedCall } from './hook-decision.js';

export interface HookRunnerOptions {
  /** config.json `hooks`, for sessions `configOf` says nothing about. */
  config?: AgentdConfig['hooks'];
  /**
   * A session's own `hooks` (its project's effective config: the user's, or a trusted
   * project's over them); `config` when absent or when it returns undefined.
   */
  configOf?(sessionId: string): AgentdConfig['hooks'] | undefined;
  /** A session's working directory, where command hooks run. */
  cwdOf(sessionId: string): string;
  log(line: string): void;
  /** Base environment for hook commands; `process.env` when absent. Secrets are scrubbed. */
  env?: NodeJS.ProcessEnv;
  /** How long a hook client gets to answer; 10 s when absent. */
  clientTimeoutMs?: number;
}

/**
 * Every hook around tool calls, as the loop's `ToolHooks`: config command hooks first,
 * then client hooks in registration order. Before-hooks run one after another, each
 * seeing the arguments as the previous one left them; the first block wins. After-hooks
 * likewise pass the result along, each may replace it.
 */
export class HookRunner {
  private readonly clients = new Map<RemotePeer, ClientHook>();
  private readonly deps: CommandHookDeps;
  /** Command hooks built once per `hooks` config object. */
  private readonly commands = new WeakMap<object, { before: CommandHook[]; after: CommandHook[] }>();
  private readonly none: { before: CommandHook[]; after: CommandHook[] } = { before: [], after: [] };

  constructor(private readonly options: HookRunnerOptions) {
    this.deps = { cwdOf: options.cwdOf, env: scrubEnv(options.env ?? process.env), log: options.log };
  }

  /** The command hooks that apply to a session. */
  private commandsOf(sessionId: string): { before: CommandHook[]; after: CommandHook[] } {
    const config = this.options.configOf?.(sessionId) ?? this.options.config;
    if (!config) return this.none;
    let built = this.commands.get(config);
    if (!built) {
      built = {
        before: (config.beforeToolCall ?? []).map((c) => new CommandHook(c, 'beforeToolCall', this.deps)),
        after: (config.afterToolCall ?? []).map((c) => new CommandHook(c, 'afterToolCall', this.deps)),
      };
      this.commands.set(config, built);
    }
    return built;
  }

  /** `hooks/register`: replaces the client's earlier registration; removed when it disconnects. */
  register(peer: RemotePeer, registration: RegisterHooksRequest): void {
    const known = this.clients.has(peer);
    // Re-registering moves the client to the end, as if registered now.
    this.clients.delete(peer);
    this.clients.set(peer, new ClientHook(peer, registration, { timeoutMs: this.options.clientTimeoutMs ?? DEFAULT_CLIENT_HOOK_TIMEOUT_MS, log: this.options.log }));
    if (!known) peer.onClose(() => this.clients.delete(peer));
  }

  /** Number of clients with hooks registered. */
  get clientCount(): number {
    return this.clients.size;
  }

  async before(call: HookedCall, sessionId: string): Promise<HookDecision> {
    const hooks = [
      ...this.commandsOf(sessionId).before.filter((h) => h.matches(call.name)),
      ...[...this.clients.values()].filter((h) => h.matches('beforeToolCall', call.name, sessionId)),
    ];
    let args = call.args;
    let rewritten = false;
    for (const hook of hooks) {
      const decision = await hook.before({ ...call, args }, sessionId);
      if (decision.decision === 'block') return decision;
      if (decision.decision === 'rewrite') {
        args = decision.args;
        rewritten = true;
      }
    }
    return rewritten ? { decision: 'rewrite', args } : { decision: 'allow' };
  }

  async after(call: HookedCall, result: ToolResult, sessionId: string): Promise<ToolResult> {
    const hooks = [
      ...this.commandsOf(sessionId).after.filter((h) => h.matches(call.name)),
      ...[...this.clients.values()].filter((h) => h.matches('afterToolCall', call.name, sessionId)),
    ];
    let current = result;
    for (const hook of hooks) current = await hook.after(call, current, sessionId);
    return current;
  }
}
