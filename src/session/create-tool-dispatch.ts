import type { ToolDispatchContext, ToolHooks } from '../loop/dispatch-tool-calls.js';
import type { LoopEvent } from '../loop/loop-event.js';
import type { SessionRecord } from '../store/store.js';
import { accessPolicy, type AccessPolicy } from '../tools/access-policy.js';
import type { FileStateTracker } from '../tools/file-state-tracker.js';
import type { PermissionRuleSet } from '../tools/permissions/match-permission-rules.js';
import { permissionsStoreDir } from '../tools/permissions/manage-remembered-permissions.js';
import type { PermissionMode } from '../tools/permissions/permission-modes.js';
import type { SandboxInfo } from '../tools/sandbox/detect-sandbox.js';
import { defaultSandboxPolicy } from '../tools/sandbox/sandbox-policy.js';
import type { ToolSettings } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { PermissionAsker } from './permission-asker.js';
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
}

/** What tool dispatch needs of the session it runs for. */
export interface ToolHost {
  id: string;
  /** The session's record as it is now (cwd and directories). */
  record(): SessionRecord;
  /** Per-session read tracking, so write and edit refuse stale or unseen files. */
  fileState: FileStateTracker;
  emit(event: LoopEvent): void;
  /** True while a steering message waits: calls not yet started are skipped. */
  steeringPending(): boolean;
  /** The running turn's own permission mode, when a run set one (see RunOverrides); the project's otherwise. */
  runPermissionMode(): PermissionMode | undefined;
}

/** A session's tool dispatch; the turn adds the refusal of its agent. */
export type SessionToolDispatch = Omit<ToolDispatchContext, 'refusal'>;

/** Builds one session's tool dispatch: its permissions, hooks and the context each tool runs with. */
export async function createToolDispatch(host: ToolHost, options: ToolRuntimeOptions): Promise<SessionToolDispatch> {
  const sandbox = await options.sandbox;
  const record = host.record();
  // One set of checks per mode in use: the project's, and a run's own for that run's turn.
  // Nothing in the session record sets a mode (a `meta.permissionMode` written by an older
  // version is ignored), so every other turn runs in the project's mode.
  const byMode = new Map<PermissionMode, ReturnType<typeof createSessionPermissions>>();
  const permissionsNow = (): ReturnType<typeof createSessionPermissions> => {
    const mode = host.runPermissionMode() ?? options.mode;
    let permissions = byMode.get(mode);
    if (!permissions) {
      permissions = createSessionPermissions({
        sessionId: host.id,
        cwd: record.cwd,
        additionalDirectories: record.additionalDirectories,
        rules: options.rules,
        mode,
        permissionsDir: permissionsStoreDir(options.dataDir),
        asker: options.asker,
        access: sessionAccessPolicy(options, host.id),
      });
      byMode.set(mode, permissions);
    }
    return permissions;
  };

  return {
    registry: options.registry,
    sessionId: host.id,
    cwd: record.cwd,
    permit: (tool, args, call, signal) =>
      permissionsNow().permit(
        {
          id: call.id,
          title: call.title,
          tool: tool.name,
          kind: tool.kind,
          access: tool.access,
          ...(tool.accessFromHint ? { accessFromHint: true } : {}),
          args,
          ...(tool.preview ? { preview: (resolved: Record<string, unknown>) => tool.preview!(resolved, { cwd: record.cwd }) } : {}),
        },
        signal,
      ),
    toolContext: (call, callSignal, onProgress) => ({
      cwd: record.cwd,
      additionalDirectories: record.additionalDirectories,
      sessionId: host.id,
      toolCallId: call.id,
      signal: callSignal,
      onProgress,
      permission: permissionsNow().gateFor(
        { id: call.id, title: call.name, kind: options.registry.get(call.name, host.id)?.kind ?? 'other' },
        callSignal,
      ),
      fileState: host.fileState,
      dataDir: options.dataDir,
      sandbox,
      ...(options.settings ? { settings: options.settings } : {}),
    }),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    emit: (event) => host.emit(event),
    steeringPending: () => host.steeringPending(),
  };
}

/**
 * What a session's file tools, permission questions and MCP roots keep off: the same
 * hidden paths its bash sandbox gets (its project's sandbox policy), so a file tool
 * cannot see what bash cannot.
 */
export function sessionAccessPolicy(options: Pick<ToolRuntimeOptions, 'settings' | 'dataDir'>, sessionId: string): AccessPolicy {
  return accessPolicy(options.settings?.sandboxPolicy ?? defaultSandboxPolicy(), options.dataDir, sessionId);
}

