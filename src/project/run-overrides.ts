import type { PermissionMode } from '../tools/permissions/permission-modes.js';

/**
 * What one run sets for its own turn only (a scheduled run's permission mode and budget).
 * Held by the turn in memory and never written to the session record, so a later turn of
 * the same session — from any client, after a reload or a daemon restart — runs with the
 * session's own settings (its project's configured mode and budget).
 */
export interface RunOverrides {
  /** The permission mode of this run's tool calls, instead of the project's. */
  permissionMode?: PermissionMode;
  /** The budget (US dollars) this run's turn stops at, instead of the config's `budgetUsd`. */
  budgetUsd?: number;
}
