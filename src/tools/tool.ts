import type { z } from 'zod';
import type { ImagePart, TextPart } from '../providers/message.js';
import type { FileStateTracker } from './files/file-state-tracker.js';
import type { Access, PermissionGate } from './permission-gate.js';
import type { SandboxInfo } from './sandbox/detect-sandbox.js';
import type { SandboxPolicy } from './sandbox/sandbox-policy.js';

export type { Access } from './permission-gate.js';

/** ACP `ToolKind` (how a client presents a call), `ToolCallLocation` (a file it touches, for
 * "follow along") and `PlanEntry`: the protocol's types, never a copy. */
export type { PlanEntry, ToolKind, ToolCallLocation as ToolLocation } from '../../protocol/index.js';
import type { PlanEntry, ToolKind, ToolCallLocation as ToolLocation } from '../../protocol/index.js';

/** A resource block in a tool result (ACP embedded resource). */
export interface ResourcePart {
  type: 'resource';
  /** e.g. `file:///abs/path` or the fetched URL. */
  uri: string;
  /** The resource's text, when it is text. */
  text?: string;
  /** e.g. `text/markdown`. */
  mimeType?: string;
}

/** A change one call made to one file, for the client's diff view (ACP `diff` content). */
export interface FileDiff {
  /** Absolute path. */
  path: string;
  /** Content before the change; `null` when the file was created. */
  oldText: string | null;
  /** Content after the change. */
  newText: string;
}

/** What a tool hands back to the loop (and, through the session, to the client). */
export interface ToolResult {
  /** What the model sees, in order. */
  content: Array<TextPart | ImagePart | ResourcePart>;
  /** True when the call failed; the model sees the content as an error. */
  isError?: boolean;
  /** Structured extras for the client and the session; never sent to the model. */
  details?: {
    /** File changes, one per file. */
    diff?: FileDiff[];
    /** Exit code of a process (bash). */
    exitCode?: number;
    /** True when the output shown was cut. */
    truncated?: boolean;
    /** Where the full, uncut output was saved. */
    fullOutputPath?: string;
    /** The plan, replaced as a whole (todo); the session sends it as an ACP `plan` update. */
    plan?: PlanEntry[];
  };
}

/** Partial output streamed while a tool runs (e.g. bash), throttled by the tool. */
export interface ToolProgress {
  /** Output produced since the previous progress update. */
  delta: string;
  /** The output so far as the model would see it now (head and tail when long). */
  output: string;
}

/**
 * A session's own settings for the built-in tools, from its project's effective config
 * (the user's config, or a trusted project's over it). They take the place of the
 * options a tool was created with, so one registry serves every project.
 */
export interface ToolSettings {
  /** Sandboxed bash may use the network (config `sandbox.network`). */
  bashNetwork?: boolean;
  /**
   * What bash hides and passes (the project's sandbox policy); the tool's own when unset.
   * The file tools keep off the same hidden paths (access-policy.ts); a daemon's default
   * policy on the call's environment when unset.
   */
  sandboxPolicy?: SandboxPolicy;
  /** web_fetch reaches only these hosts (config `tools.webFetchAllowedHosts`); any public host when unset. */
  webFetchAllowedHosts?: string[];
}

/** Everything a tool may use while it runs; built by the loop for each call. */
export interface ToolContext {
  /** The session's working directory (absolute); relative paths resolve against it. */
  cwd: string;
  /** Further directories the session may use as freely as cwd (absolute). */
  additionalDirectories: string[];
  /** The session the call belongs to. */
  sessionId: string;
  /** The call's id, as the model sent it. */
  toolCallId: string;
  /** Aborted when the user cancels the turn; tools stop work and clean up. */
  signal: AbortSignal;
  /** Receives streamed partial output (e.g. bash); may be called many times. */
  onProgress(update: ToolProgress): void;
  /** Asks for consent (paths outside the workspace, unsandboxed bash). */
  permission: PermissionGate;
  /** Per-session read tracking, so write and edit refuse stale or unseen files. */
  fileState: FileStateTracker;
  /** The daemon's data directory; bash saves full outputs under `<dataDir>/tool-output/`. */
  dataDir: string;
  /** Whether bash runs inside bubblewrap. */
  sandbox: SandboxInfo;
  /** Base environment for processes; `process.env` when absent. Secrets are scrubbed anyway. */
  env?: NodeJS.ProcessEnv;
  /** The session's tool settings; the tool's creation options when absent. */
  settings?: ToolSettings;
}

/** A tool the model can call. */
export interface Tool<Args = Record<string, unknown>> {
  /** Unique name the model calls it by (`[A-Za-z0-9_-]`, at most 64 chars, as vendors require). */
  name: string;
  /** What it does and when to use it; sent to the model. */
  description: string;
  /** zod 4 schema of the arguments; the model gets `z.toJSONSchema` of it. */
  inputSchema: z.ZodType<Args>;
  /**
   * JSON Schema sent to the model and used for validation instead of one derived from
   * `inputSchema`; set by client-registered and MCP tools, whose schema arrives as JSON.
   */
  jsonSchema?: Record<string, unknown>;
  /** How the client should present it. */
  kind: ToolKind;
  /** What it does to the world; the default permission decision depends on it. */
  access: Access;
  /**
   * True when `access` is the tool's own claim rather than ours (a trusted MCP server's
   * `readOnlyHint`): the `deny` permission mode then runs it only on an explicit allow rule.
   */
  accessFromHint?: boolean;
  /** True when the call must not run in parallel with other calls (writes, commands). */
  sequential?: boolean;
  /** Human title for the client, e.g. "Read src/a.ts". */
  title(args: Args): string;
  /** Files the call touches, for the client's follow-along. */
  locations?(args: Args, ctx: Pick<ToolContext, 'cwd'>): ToolLocation[];
  /**
   * How long this call may run, when the tool or its arguments say (bash's `timeoutMs`, a
   * client tool's registered limit); the loop's per-call limit applies otherwise.
   * `Infinity` means the tool bounds itself (a sub-agent has its own turn limit and budget).
   */
  timeoutMs?(args: Args): number | undefined;
  /**
   * The change the call would make, worked out without making it, for the diff a
   * permission question shows (ACP `diff` content); empty when it cannot tell, such as
   * when the call would fail.
   */
  preview?(args: Args, ctx: Pick<ToolContext, 'cwd'>): Promise<FileDiff[]>;
  /** Runs the call. Failures come back as `isError` results, not rejections. */
  execute(args: Args, ctx: ToolContext): Promise<ToolResult>;
}
