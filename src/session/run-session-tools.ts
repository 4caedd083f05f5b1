import path from 'node:path';
import { dispatchToolCalls, type PermitDecision, type ToolDispatchContext, type ToolHooks } from '../loop/dispatch-tool-calls.js';
import type { ToolCallRequest } from '../loop/loop-context.js';
import type { ToolMessage } from '../providers/message.js';
import type { PermissionGate } from '../tools/permission-gate.js';
import type { PermissionRuleSet } from '../tools/permissions/match-permission-rules.js';
import { decidePermission, type PermissionMode } from '../tools/permissions/permission-mode.js';
import { loadRememberedPermissions, rememberPermission } from '../tools/permissions/remembered-permissions.js';
import type { SandboxInfo } from '../tools/sandbox/detect-sandbox.js';
import type { Tool, ToolSettings } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { PermissionAnswer, PermissionAsker } from './permission-asker.js';
import type { Session } from './session.js';

export interface ToolRuntimeOptions {
  registry: ToolRegistry;
  /** Rules from config (user, then project). */
  rules: PermissionRuleSet[];
  mode: PermissionMode;
  /** Resolves once the start-up probe has run. */
  sandbox: Promise<SandboxInfo>;
  dataDir: string;
  asker: PermissionAsker;
  hooks?: ToolHooks;
  /** Parallel calls at most (config tools.maxParallel). */
  concurrency?: number;
  /** Per-call time limit (config tools.timeoutMs). */
  timeoutMs?: number;
  /** The session's own built-in tool settings (its project's config). */
  settings?: ToolSettings;
  /** Why the session's agent may not use a tool, if it may not. */
  refusal(session: Session, tool: Tool): string | undefined;
}

/** Runs one assistant message's tool calls for a session, with its permissions and hooks. */
export async function runSessionTools(
  session: Session,
  calls: ToolCallRequest[],
  signal: AbortSignal,
  options: ToolRuntimeOptions,
): Promise<ToolMessage> {
  const { record } = session;
  const sandbox = await options.sandbox;
  const permissionsDir = path.join(options.dataDir, 'permissions');
  const ask = (
    question: { toolCallId: string; title: string; kind: string; rawInput: Record<string, unknown>; reason?: string },
    askSignal: AbortSignal,
  ): Promise<PermissionAnswer> => options.asker({ sessionId: session.id, ...question }, askSignal);
  const decide = async (tool: string, access: Tool['access'], args: Record<string, unknown>): Promise<'allow' | 'ask' | 'deny'> =>
    decidePermission({
      rules: [...options.rules, await loadRememberedPermissions(record.cwd, permissionsDir)],
      mode: options.mode,
      tool,
      access,
      args,
      cwd: record.cwd,
      additionalDirectories: record.additionalDirectories,
    });
  // Calls the user has just allowed: a tool's own check in the same call does not ask again.
  const allowedByUser = new Set<string>();

  const ctx: ToolDispatchContext = {
    registry: options.registry,
    sessionId: session.id,
    cwd: record.cwd,
    refusal: (tool) => options.refusal(session, tool),
    permit: async (tool, args, call) => {
      const decision = await decide(tool.name, tool.access, args);
      if (decision === 'allow') return { allowed: true };
      if (decision === 'deny') return denied(`Permission denied by the configured rules or permission mode for ${tool.name}.`);
      const answer = await ask({ toolCallId: call.id, title: call.title, kind: tool.kind, rawInput: args }, signal);
      const permit = await settle(answer, tool.name, async (outcome) => {
        await rememberPermission(record.cwd, permissionsDir, { tool: tool.name, args, outcome });
      });
      if (permit.allowed) allowedByUser.add(call.id);
      return permit;
    },
    toolContext: (call, callSignal, onProgress) => {
      const gate: PermissionGate = {
        // A tool's own question (a path outside the workspace, bash without the sandbox)
        // follows the same rules and mode as the call itself, and asks only when they do.
        check: async (request) => {
          if (allowedByUser.has(call.id)) return 'allow';
          const target = request.paths?.[0] !== undefined ? { ...request.args, path: request.paths[0] } : request.args;
          const decision = await decide(request.tool, request.access, target);
          if (decision !== 'ask') return decision;
          const answer = await ask({
            toolCallId: call.id,
            title: request.reason ?? `${request.tool} needs permission`,
            kind: options.registry.get(request.tool, session.id)?.kind ?? 'other',
            rawInput: request.args,
            ...(request.reason ? { reason: request.reason } : {}),
          }, callSignal);
          return answer === 'allow_once' || answer === 'allow_always' ? 'allow' : 'deny';
        },
      };
      return {
        cwd: record.cwd,
        additionalDirectories: record.additionalDirectories,
        sessionId: session.id,
        toolCallId: call.id,
        signal: callSignal,
        onProgress,
        permission: gate,
        fileState: session.fileState,
        dataDir: options.dataDir,
        sandbox,
        ...(options.settings ? { settings: options.settings } : {}),
      };
    },
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    emit: (event) => session.publish(event),
    steeringPending: () => session.hasSteering(),
  };
  return dispatchToolCalls(calls, ctx, signal);
}

function denied(reason: string): PermitDecision {
  return { allowed: false, reason: `${reason} Do not retry the same call; ask the user or choose another approach.` };
}

async function settle(
  answer: PermissionAnswer,
  tool: string,
  remember: (outcome: 'allow_always' | 'reject_always') => Promise<void>,
): Promise<PermitDecision> {
  switch (answer) {
    case 'allow_always':
      await remember('allow_always');
      return { allowed: true };
    case 'allow_once':
      return { allowed: true };
    case 'reject_always':
      await remember('reject_always');
      return denied(`Permission denied: the user rejected ${tool} for this project.`);
    case 'reject_once':
      return denied(`Permission denied: the user rejected this ${tool} call.`);
    case 'cancelled':
      return denied(`Permission request for ${tool} was cancelled.`);
    case 'no_client':
      return denied(
        `Permission for ${tool} is required but no client can be asked (headless run or a client without permission support); ` +
          'allow it with a permissions rule in config.json or --permission-mode.',
      );
  }
}
