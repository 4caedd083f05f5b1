import type { ToolKind } from '../../protocol/index.js';
import type { PermitDecision } from '../loop/dispatch-tool-calls.js';
import { findSensitive, type AccessPolicy } from '../tools/access/access-policy.js';
import { displayPath } from '../tools/access/display-path.js';
import { isInside } from '../tools/access/is-inside.js';
import type { Access, PermissionGate, PermissionRequest } from '../tools/permission-gate.js';
import type { FileDiff } from '../tools/tool.js';
import { describeRememberedRule } from '../tools/permissions/describe-remembered-rule.js';
import type { PermissionRuleSet } from '../tools/permissions/match-permission-rules.js';
import { commandCaveats } from '../tools/permissions/command-caveats.js';
import { decidePermission } from '../tools/permissions/permission-mode.js';
import type { PermissionMode } from '../tools/permissions/permission-modes.js';
import { protectedPathReason } from '../tools/permissions/protected-path.js';
import { questionTitle } from '../tools/permissions/question-title.js';
import { loadRememberedPermissions, rememberPermission, ruleForCall } from '../tools/permissions/remembered-permissions.js';
import { realRoots, resolvePermissionPath, type PermissionPath } from '../tools/permissions/resolve-permission-path.js';
import type { PermissionAnswer, PermissionAsker } from './permission-asker.js';

/** What the session's permission checks need. */
export interface SessionPermissionOptions {
  sessionId: string;
  cwd: string;
  additionalDirectories: string[];
  /** Rules from config (user, then project); remembered answers are added per decision. */
  rules: PermissionRuleSet[];
  mode: PermissionMode;
  /** Where remembered answers live (`<dataDir>/permissions`). */
  permissionsDir: string;
  asker: PermissionAsker;
  /**
   * What the sandbox hides from bash (credentials, agentd's own files, `sandbox.denyRead`):
   * any file tool's target inside it is asked in every mode, bypass included.
   */
  access: AccessPolicy;
}

/** One call to decide: a tool and the arguments it will run with. */
export interface PermissionCall {
  id: string;
  title: string;
  tool: string;
  kind: ToolKind;
  access: Access;
  accessFromHint?: boolean;
  args: Record<string, unknown>;
  /** The change the call would make with these arguments (the tool's preview), shown with the question. */
  preview?: (args: Record<string, unknown>) => Promise<FileDiff[]>;
}

/** A decision with what it was made about. */
interface Decision {
  effect: 'allow' | 'ask' | 'deny';
  /** The path target in both spellings, for file tools. */
  target?: PermissionPath;
  protectedReason?: string;
  /** Why the target lies in a path the sandbox hides from bash, if it does. */
  sensitiveReason?: string;
  /** Why no prefix rule could allow a bash command line, when it asks or is refused. */
  caveat?: string;
  outside: boolean;
}

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

/**
 * The permission checks of one batch of tool calls. Every decision is made about the
 * resolved target (symlinks followed) and, when it differs, the written one too, the
 * stricter winning; an approval is bound to the exact resolved path it named, so a tool's
 * own later check passes only for that path (a symlink swapped in between asks again).
 */
export function createSessionPermissions(options: SessionPermissionOptions): {
  permit(call: PermissionCall, signal: AbortSignal): Promise<PermitDecision>;
  gateFor(call: Omit<PermissionCall, 'access' | 'args' | 'tool'>, signal: AbortSignal): PermissionGate;
} {
  // Call id → the resolved path it was allowed for (undefined: a call without a path).
  const grants = new Map<string, { tool: string; real: string | undefined }>();

  const decide = async (tool: string, access: Access, args: Record<string, unknown>, accessFromHint?: boolean): Promise<Decision> => {
    const rules = [...options.rules, await loadRememberedPermissions(options.cwd, options.permissionsDir)];
    const base = { rules, mode: options.mode, tool, access, ...(accessFromHint ? { accessFromHint } : {}) };
    const target = await resolvePermissionPath(tool, args, options.cwd);
    if (!target) {
      const effect = await decidePermission({ ...base, args, cwd: options.cwd, additionalDirectories: options.additionalDirectories });
      const caveats = effect !== 'allow' && tool === 'bash' && typeof args.command === 'string' ? await commandCaveats(args.command) : [];
      return { effect, outside: false, ...(caveats.length > 0 ? { caveat: `No allow rule covers this command line part by part: ${caveats.join('; ')}` } : {}) };
    }
    const protectedReason = access === 'write' ? protectedPathReason([target.written, target.real]) : undefined;
    const roots = await realRoots(options.cwd, options.additionalDirectories);
    const sensitiveReason = (await findSensitive(options.access, [target.written, target.real], [roots.cwd, ...roots.additional], access))?.reason;
    const reasons = { ...(protectedReason ? { protectedReason } : {}), ...(sensitiveReason ? { sensitiveReason } : {}) };
    const asWritten = { ...base, ...reasons };
    const real = await decidePermission({ ...asWritten, args: { ...args, path: target.real }, cwd: roots.cwd, additionalDirectories: roots.additional });
    const written =
      target.written === target.real
        ? real
        : await decidePermission({ ...asWritten, args: { ...args, path: target.written }, cwd: options.cwd, additionalDirectories: options.additionalDirectories });
    const outside = ![roots.cwd, ...roots.additional].some((root) => isInside(target.real, root));
    return { effect: RANK[real] >= RANK[written] ? real : written, target, outside, ...reasons };
  };

  const ask = async (call: PermissionCall, decision: Decision, signal: AbortSignal, why?: string): Promise<PermissionAnswer> => {
    const { target } = decision;
    const resolved = target && target.real !== target.written ? ` (resolves to ${displayPath(target.real, options.cwd)})` : '';
    const shown = questionTitle(call.tool, call.args, call.title);
    const reasons = [
      shown.note,
      why,
      target && target.real !== target.written ? `${target.written} leads to ${target.real} through a symlink; the answer applies to ${target.real} only` : undefined,
      decision.outside && target ? `${target.real} is outside the session's directories` : undefined,
      decision.sensitiveReason,
      decision.protectedReason,
      decision.caveat,
    ].filter((r): r is string => r !== undefined);
    const rule = ruleForCall(call.tool, target ? { ...call.args, path: target.real } : call.args, options.cwd);
    const remembered = describeRememberedRule(rule);
    // Only inside the session's directories and off protected and hidden paths: the
    // preview carries the file's current text to the client. It reads the resolved path
    // the decision was about, not whatever the written one leads to by then.
    const offLimits = decision.outside || decision.protectedReason !== undefined || decision.sensitiveReason !== undefined;
    const diff = !target || offLimits ? [] : await call.preview?.({ ...call.args, path: target.real }).catch(() => []);
    return options.asker(
      {
        sessionId: options.sessionId,
        toolCallId: call.id,
        title: `${shown.title}${resolved}`,
        kind: call.kind,
        rawInput: call.args,
        ...(reasons.length > 0 ? { reason: `${reasons.map((r) => r.replace(/\.$/, '')).join('. ')}.` } : {}),
        always: {
          ...(decision.protectedReason || decision.sensitiveReason ? {} : { allow: `Always allow ${remembered}` }),
          reject: `Always reject ${remembered}`,
        },
        ...(diff && diff.length > 0 ? { diff } : {}),
      },
      signal,
    );
  };

  const remember = async (call: PermissionCall, decision: Decision, outcome: 'allow_always' | 'reject_always'): Promise<void> => {
    const args = decision.target ? { ...call.args, path: decision.target.real } : call.args;
    await rememberPermission(options.cwd, options.permissionsDir, { tool: call.tool, args, outcome });
  };

  const permit = async (call: PermissionCall, signal: AbortSignal): Promise<PermitDecision> => {
    const decision = await decide(call.tool, call.access, call.args, call.accessFromHint);
    const grant = (): PermitDecision => {
      grants.set(call.id, { tool: call.tool, real: decision.target?.real });
      return { allowed: true };
    };
    if (decision.effect === 'allow') return grant();
    if (decision.effect === 'deny') {
      const why = [decision.sensitiveReason, decision.protectedReason, decision.caveat].filter((r) => r !== undefined).map((r) => ` ${r}.`).join('');
      return denied(`Permission denied by the configured rules or permission mode for ${call.tool}.${why}`);
    }
    const answer = await ask(call, decision, signal);
    const settled = await settle(answer, call.tool, (outcome) => remember(call, decision, outcome));
    return settled.allowed ? grant() : settled;
  };

  const gateFor = (call: Omit<PermissionCall, 'access' | 'args' | 'tool'>, signal: AbortSignal): PermissionGate => {
    // A tool's own question (a path outside the workspace, bash without the sandbox, the
    // target of a write at the moment of writing) passes when the call was allowed for
    // exactly that target; otherwise it is decided, and asked, afresh.
    const recheck = async (request: PermissionRequest): Promise<'allow' | 'deny'> => {
      const real = request.paths?.[0];
      const grant = grants.get(call.id);
      if (grant && grant.tool === request.tool && grant.real === real) return 'allow';
      const args = real !== undefined ? { ...request.args, path: real } : request.args;
      const decision = await decide(request.tool, request.access, args);
      if (decision.effect !== 'ask') return decision.effect;
      const changed =
        grant?.real !== undefined && real !== undefined ? `${request.tool} was allowed for ${grant.real}, but the path now leads to ${real}` : undefined;
      const why = [changed, request.reason].filter((r): r is string => r !== undefined).join('. ');
      const full: PermissionCall = { ...call, tool: request.tool, access: request.access, args, title: request.reason ?? `${request.tool} needs permission` };
      const answer = await ask(full, decision, signal, why || undefined);
      // "Always" here remembers what its label says, as it does for the call's first question.
      if (answer === 'allow_always' || answer === 'reject_always') await remember(full, decision, answer);
      if (answer !== 'allow_once' && answer !== 'allow_always') return 'deny';
      grants.set(call.id, { tool: request.tool, real });
      return 'allow';
    };
    return { check: recheck, confirmTarget: recheck };
  };

  return { permit, gateFor };
}

function denied(reason: string): PermitDecision {
  return { allowed: false, reason: `${reason} Do not retry the same call; ask the user or choose another approach.` };
}

async function settle(
  answer: PermissionAnswer,
  tool: string,
  remember: (outcome: 'allow_always' | 'reject_always') => Promise<void>,
): Promise<PermitDecision> {
  if (typeof answer === 'object') {
    return denied(`Permission for ${tool} was not given: the ${answer.invalidAnswer}. The call was refused.`);
  }
  switch (answer) {
    case 'allow_always':
      await remember('allow_always');
      return { allowed: true };
    case 'allow_once':
      return { allowed: true };
    case 'reject_always':
      await remember('reject_always');
      return denied(`Permission denied: the user rejected ${tool} for this project.`);
    case 'reject_once':
      return denied(`Permission denied: the user rejected this ${tool} call.`);
    case 'cancelled':
      return denied(`Permission request for ${tool} was cancelled.`);
    case 'no_client':
      return denied(
        `Permission for ${tool} is required but no client can be asked (headless run or a client without permission support); ` +
          'allow it with a permissions rule in config.json or --permission-mode.',
      );
  }
}
