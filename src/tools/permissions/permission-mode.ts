import path from 'node:path';
import { isInside } from '../is-inside.js';
import type { Access } from '../permission-gate.js';
import { matchPermissionRules, type PermissionRuleSet } from './match-permission-rules.js';
import { permissionTarget } from './permission-target.js';

/**
 * `--permission-mode`:
 * - `ask`: reads and searches inside the workspace run, everything else asks;
 * - `acceptEdits`: as ask, but writes inside the workspace run without asking;
 * - `bypass`: nothing asks (explicit deny rules still refuse);
 * - `deny`: nothing asks: whatever would ask is refused (for unattended runs).
 */
export type PermissionMode = 'ask' | 'acceptEdits' | 'bypass' | 'deny';

export const PERMISSION_MODES: readonly PermissionMode[] = ['ask', 'acceptEdits', 'bypass', 'deny'];

/** Parses a `--permission-mode` value, with an error listing the valid ones. */
export function parsePermissionMode(text: string): PermissionMode {
  const mode = PERMISSION_MODES.find((m) => m === text);
  if (!mode) throw new Error(`Unknown permission mode "${text}"; use one of: ${PERMISSION_MODES.join(', ')}.`);
  return mode;
}

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
}

/**
 * Decides whether a tool call runs, asks the user, or is refused. Rules decide first
 * (deny always refuses); without a matching rule: reads and searches inside the workspace
 * are allowed, writes ask (allowed in acceptEdits when inside the workspace), commands and
 * network ask. Then the mode: bypass turns ask into allow, deny turns ask into deny.
 * The workspace check here is lexical; tools re-check with real paths at run time.
 */
export function decidePermission(question: PermissionQuestion): 'allow' | 'ask' | 'deny' {
  const { mode } = question;
  const ruled = matchPermissionRules(question.rules, { tool: question.tool, args: question.args, cwd: question.cwd });
  if (ruled === 'deny') return 'deny';
  const decision = ruled ?? defaultDecision(question);
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
