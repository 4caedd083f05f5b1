/**
 * The consent interface tools call when an action needs the user's approval: a path
 * outside the workspace, or bash without a sandbox. The server implements it by sending
 * ACP `session/request_permission` to the client; tests and headless runs use the helpers.
 */

/** What a tool call does to the world; drives default permission decisions. */
export type Access = 'read' | 'search' | 'write' | 'execute' | 'network';

/** One question put to the gate. */
export interface PermissionRequest {
  /** Name of the tool asking (e.g. `read`, `bash`). */
  tool: string;
  /** The kind of access the action needs. */
  access: Access;
  /** The tool call's arguments, shown to the user and matched against rules. */
  args: Record<string, unknown>;
  /** Why consent is needed, in one sentence the user can act on. */
  reason?: string;
  /**
   * What exactly the action touches: absolute paths for files, the URL for a web_fetch
   * redirect. The session's gate binds an approval to this target, so a request naming a
   * target other than the one the call was allowed for is decided (and asked) afresh.
   */
  paths?: string[];
}

/** Decides whether an action may go ahead; implementations may ask a human. */
export interface PermissionGate {
  check(request: PermissionRequest): Promise<'allow' | 'deny'>;
  /**
   * Called by write and edit just before they write `request.paths[0]` (symlinks
   * resolved) inside the workspace: allows when the call was approved for exactly that
   * target, and otherwise decides (and asks) again, so a symlink swapped after the
   * question cannot redirect the write. Gates without per-call approvals leave it out.
   */
  confirmTarget?(request: PermissionRequest): Promise<'allow' | 'deny'>;
}

/** A gate that allows everything (trusted headless runs, tests). */
export const allowAllGate: PermissionGate = {
  check: () => Promise.resolve('allow'),
};

/** A gate that denies everything (`--permission-mode deny`, tests). */
export const denyAllGate: PermissionGate = {
  check: () => Promise.resolve('deny'),
};
