import path from 'node:path';
import type { PermissionMode } from '../tools/permissions/permission-modes.js';
import { isInside } from '../tools/access/is-inside.js';

/** The parts of an ACP `session/request_permission` a headless client decides on. */
export interface PermissionRequestSeen {
  toolCall?: { kind?: string | null; rawInput?: unknown };
}

/**
 * What `agentd run`, as a client of another daemon, answers a permission question with,
 * following its `--permission-mode` as the in-process headless asker would: `bypass`
 * allows, `acceptEdits` allows an edit inside the run's cwd, and everything else gets no
 * answer (undefined), so the daemon treats it as "no client can be asked" and refuses.
 */
export function headlessPermissionAnswer(mode: PermissionMode, request: PermissionRequestSeen, cwd: string): 'allow_once' | undefined {
  if (mode === 'bypass') return 'allow_once';
  if (mode !== 'acceptEdits' || request.toolCall?.kind !== 'edit') return undefined;
  const input = (typeof request.toolCall.rawInput === 'object' && request.toolCall.rawInput !== null ? request.toolCall.rawInput : {}) as Record<string, unknown>;
  const target = typeof input.path === 'string' ? input.path : typeof input.file_path === 'string' ? input.file_path : undefined;
  if (target === undefined) return undefined;
  return isInside(path.resolve(cwd, target), path.resolve(cwd)) ? 'allow_once' : undefined;
}
