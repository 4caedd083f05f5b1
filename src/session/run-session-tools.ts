import { dispatchToolCalls, type ToolDispatchContext, type ToolHooks } from '../loop/dispatch-tool-calls.js';
import type { ToolCallRequest } from '../loop/loop-context.js';
import type { ToolMessage } from '../providers/message.js';
import type { PermissionRuleSet } from '../tools/permissions/match-permission-rules.js';
import { permissionsStoreDir } from '../tools/permissions/manage-remembered-permissions.js';
import type { PermissionMode } from '../tools/permissions/permission-mode.js';
import type { SandboxInfo } from '../tools/sandbox/detect-sandbox.js';
import type { Tool, ToolSettings } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { PermissionAsker } from './permission-asker.js';
import type { Session } from './session.js';
import { createSessionPermissions } from './session-permissions.js';

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
  const permissions = createSessionPermissions({
    sessionId: session.id,
    cwd: record.cwd,
    additionalDirectories: record.additionalDirectories,
    rules: options.rules,
    mode: options.mode,
    permissionsDir: permissionsStoreDir(options.dataDir),
    asker: options.asker,
  });

  const ctx: ToolDispatchContext = {
    registry: options.registry,
    sessionId: session.id,
    cwd: record.cwd,
    refusal: (tool) => options.refusal(session, tool),
    permit: (tool, args, call) =>
      permissions.permit(
        {
          id: call.id,
          title: call.title,
          tool: tool.name,
          kind: tool.kind,
          access: tool.access,
          ...(tool.accessFromHint ? { accessFromHint: true } : {}),
          args,
        },
        signal,
      ),
    toolContext: (call, callSignal, onProgress) => ({
      cwd: record.cwd,
      additionalDirectories: record.additionalDirectories,
      sessionId: session.id,
      toolCallId: call.id,
      signal: callSignal,
      onProgress,
      permission: permissions.gateFor(
        { id: call.id, title: call.name, kind: options.registry.get(call.name, session.id)?.kind ?? 'other' },
        callSignal,
      ),
      fileState: session.fileState,
      dataDir: options.dataDir,
      sandbox,
      ...(options.settings ? { settings: options.settings } : {}),
    }),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    emit: (event) => session.publish(event),
    steeringPending: () => session.hasSteering(),
  };
  return dispatchToolCalls(calls, ctx, signal);
}
