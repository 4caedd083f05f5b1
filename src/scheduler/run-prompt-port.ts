import type { SchedulePermissionMode, StopReason } from '../../protocol/index.js';

/** What a scheduled run asks of the daemon: one prompt in a new headless session. */
export interface RunPromptRequest {
  /** Schedule id and run id, kept with the session so it can be traced back. */
  scheduleId: string;
  runId: string;
  /** The session's title (the schedule's name). */
  title: string;
  cwd: string;
  prompt: string;
  agent?: string;
  model?: string;
  budgetUsd?: number;
  permissionMode: SchedulePermissionMode;
  /** Aborting it stops the turn as `session/abort` would. */
  signal: AbortSignal;
}

/** How the run's turn ended: a stop reason, or an error when it failed; cost either way. */
export interface RunPromptResult {
  stopReason: StopReason | null;
  costUsd: number;
  error?: string;
}

/** A started run: its session, and the end of its turn (never rejects). */
export interface StartedPrompt {
  sessionId: string;
  done: Promise<RunPromptResult>;
}

/**
 * The scheduler's one port into the daemon, built by the server from the SessionManager:
 * creates a session and prompts it. Throws when the session cannot be made (cwd gone,
 * unknown agent or model); the run is then recorded as failed.
 */
export type RunPrompt = (request: RunPromptRequest) => Promise<StartedPrompt>;
