import type { AgentDefinition } from '../config/agent-definition.js';
import type { AgentdConfig } from '../config/config-schema.js';
import type { PermissionSource } from '../config/load-config.js';
import { agentAllowsTool } from '../loop/agent-allows-tool.js';
import type { ToolDispatchContext } from '../loop/dispatch-tool-calls.js';
import type { LoopEvent } from '../loop/loop-event.js';
import type { ToolSpec } from '../providers/request.js';
import type { SessionRecord } from '../store/store.js';
import { accessPolicy, type AccessPolicy } from '../tools/access/access-policy.js';
import type { FileStateTracker } from '../tools/files/file-state-tracker.js';
import { permissionsStoreDir } from '../tools/permissions/manage-remembered-permissions.js';
import type { PermissionMode } from '../tools/permissions/permission-modes.js';
import type { SandboxInfo } from '../tools/sandbox/detect-sandbox.js';
import type { SandboxPolicy } from '../tools/sandbox/sandbox-policy.js';
import type { Tool, ToolSettings } from '../tools/tool.js';
import { agentConstraints, constraintRefusal } from './agent-constraints.js';
import type { ProjectParts } from './project-parts.js';
import { createSessionPermissions } from './session-permissions.js';

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
  /** The permission mode the running turn holds (a run's own, or `--permission-mode`); the project's when undefined. */
  turnPermissionMode(): PermissionMode | undefined;
}

/** A session's tool dispatch; the turn adds the refusal of its agent. */
export type SessionToolDispatch = Omit<ToolDispatchContext, 'refusal'>;

/**
 * The tool side of one project's settings: which tools an agent may use, the permission
 * rules and mode its sessions' calls are checked against, the sandbox and hidden paths
 * they run with, and the dispatch each session's turns use.
 */
export class ProjectTools {
  private readonly settings: ToolSettings;

  constructor(
    private readonly parts: ProjectParts,
    private readonly config: AgentdConfig,
    /** Rules from config (user, then project). */
    private readonly rules: PermissionSource[],
    /** Hidden paths, environment and network of this project's sandbox. */
    readonly sandboxPolicy: SandboxPolicy,
    /** Resolves once the start-up probe has run. */
    readonly sandbox: Promise<SandboxInfo>,
  ) {
    this.settings = {
      bashNetwork: config.sandbox?.network ?? false,
      sandboxPolicy,
      ...(config.tools?.webFetchAllowedHosts ? { webFetchAllowedHosts: config.tools.webFetchAllowedHosts } : {}),
    };
  }

  /** Why the agent may not use a tool (its access, or a parent's constraints on a sub-agent), if it may not. */
  refusal(record: SessionRecord, agent: AgentDefinition, tool: Tool): string | undefined {
    // A sub-agent also answers to every ancestor's agent (its record's meta carries them).
    return agentAllowsTool(agent, tool)
      ? constraintRefusal(agentConstraints(record), tool)
      : `The ${agent.name} agent (${agent.access} access) may not use ${tool.name}. Switch to an agent that may (session/set_mode), or do without it.`;
  }

  /** The tools the agent may use, as sent to the model. */
  specs(record: SessionRecord, agent: AgentDefinition): ToolSpec[] {
    const { tools } = this.parts;
    const allowed = tools
      .list(record.id)
      .filter((entry) => this.refusal(record, agent, entry.tool) === undefined)
      .map((entry) => entry.tool.name);
    return tools.specs({ sessionId: record.id, names: allowed });
  }

  /**
   * What a session's file tools, permission questions and MCP roots keep off: the same
   * hidden paths its bash sandbox gets, so a file tool cannot see what bash cannot.
   */
  accessPolicy(sessionId: string): AccessPolicy {
    return accessPolicy(this.sandboxPolicy, this.parts.paths.dataDir, sessionId);
  }

  /** Builds one session's tool dispatch: its permissions, hooks and the context each tool runs with. */
  async dispatch(host: ToolHost): Promise<SessionToolDispatch> {
    const sandbox = await this.sandbox;
    const { tools: registry, paths, asker, hooks } = this.parts;
    const record = host.record();
    const configured = this.config.permissions?.mode ?? 'ask';
    // One set of checks per mode in use: the project's, and a turn's own. Nothing in the
    // session record sets a mode, so every turn that holds none runs in the project's.
    const byMode = new Map<PermissionMode, ReturnType<typeof createSessionPermissions>>();
    const permissionsNow = (): ReturnType<typeof createSessionPermissions> => {
      const mode = host.turnPermissionMode() ?? configured;
      let permissions = byMode.get(mode);
      if (!permissions) {
        permissions = createSessionPermissions({
          sessionId: host.id,
          cwd: record.cwd,
          additionalDirectories: record.additionalDirectories,
          rules: this.rules,
          mode,
          permissionsDir: permissionsStoreDir(paths.dataDir),
          asker,
          access: this.accessPolicy(host.id),
        });
        byMode.set(mode, permissions);
      }
      return permissions;
    };
    const { maxParallel, timeoutMs } = this.config.tools ?? {};
    return {
      registry,
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
        permission: permissionsNow().gateFor({ id: call.id, title: call.name, kind: registry.get(call.name, host.id)?.kind ?? 'other' }, callSignal),
        fileState: host.fileState,
        dataDir: paths.dataDir,
        sandbox,
        settings: this.settings,
      }),
      hooks,
      ...(maxParallel !== undefined ? { concurrency: maxParallel } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      emit: (event) => host.emit(event),
      steeringPending: () => host.steeringPending(),
    };
  }
}
