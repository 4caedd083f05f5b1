import path from 'node:path';
import { isInside } from '../access/is-inside.js';
import type { Access } from '../permission-gate.js';
import { matchPermissionRules, type PermissionRuleSet } from './match-permission-rules.js';
import { permissionTarget } from './permission-target.js';
import type { PermissionMode } from './permission-modes.js';

/** Everything a permission decision depends on. */
export interface PermissionQuestion {
  /** Rule sources in order: user config, project config, remembered answers. */
  rules: PermissionRuleSet[];
  mode: PermissionMode;
  tool: string;
  access: Access;
  args: Record<string, unknown>;
  /** The session's working directory. */
  cwd: string;
  /** Further workspace directories, treated like cwd. */
  additionalDirectories?: string[];
  /**
   * True when `access` is a tool's own claim about itself (a trusted MCP server's
   * `readOnlyHint`): the `deny` mode does not take its word and runs it only on an
   * explicit allow rule.
   */
  accessFromHint?: boolean;
  /**
   * Why the target is protected (a write into `.git/` or `.agentd/`), if it is: it asks in
   * every mode but bypass (refused in deny), whatever allow rules or remembered answers say.
   */
  protectedReason?: string;
  /**
   * Why the target lies in a path the sandbox hides from bash (credentials, agentd's own
   * files, `sandbox.denyRead`), if it does: it asks in every mode, bypass included (refused
   * in deny), whatever allow rules or remembered answers say. Only a deny rule decides first.
   */
  sensitiveReason?: string;
}

/**
 * Decides whether a tool call runs, asks the user, or is refused. Rules decide first:
 * deny, then ask, then allow, across all sources (a deny anywhere always refuses).
 * Without a matching rule: reads and searches inside the workspace are allowed, writes
 * ask (allowed in acceptEdits when inside the workspace), commands and network ask. A
 * protected target asks whatever allow rules say; a hidden one (sensitiveReason) asks even
 * in bypass. Then the mode: bypass turns ask into allow, deny turns ask into deny. The
 * workspace check here is on the path it is given; callers pass the resolved path (see
 * resolvePermissionPath) and tools re-check at run time.
 */
export async function decidePermission(question: PermissionQuestion): Promise<'allow' | 'ask' | 'deny'> {
  const { mode } = question;
  const ruled = await matchPermissionRules(question.rules, { tool: question.tool, args: question.args, cwd: question.cwd });
  if (ruled === 'deny') return 'deny';
  // What bash cannot see, no mode and no allow rule lets a file tool see or change unasked.
  if (question.sensitiveReason !== undefined) return mode === 'deny' ? 'deny' : 'ask';
  let decision = ruled ?? defaultDecision(question);
  if (question.protectedReason !== undefined) decision = 'ask';
  if (question.accessFromHint && mode === 'deny' && ruled !== 'allow') return 'deny';
  if (decision === 'ask' && mode === 'bypass') return 'allow';
  if (decision === 'ask' && mode === 'deny') return 'deny';
  return decision;
}

function defaultDecision(question: PermissionQuestion): 'allow' | 'ask' {
  const target = permissionTarget(question.tool, question.args);
  const inside =
    target?.kind !== 'path' ||
    [question.cwd, ...(question.additionalDirectories ?? [])].some((root) =>
      isInside(path.resolve(question.cwd, target.value), path.resolve(root)),
    );
  switch (question.access) {
    case 'read':
    case 'search':
      return inside ? 'allow' : 'ask';
    case 'write':
      return inside && question.mode === 'acceptEdits' ? 'allow' : 'ask';
    case 'execute':
    case 'network':
      return 'ask';
  }
}
