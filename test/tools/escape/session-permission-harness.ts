import type { PermitDecision } from '../../../src/loop/dispatch-tool-calls.js';
import type { PermissionAnswer, PermissionQuestionForClient } from '../../../src/project/permission-asker.js';
import { accessPolicy } from '../../../src/tools/access/access-policy.js';
import { createSessionPermissions } from '../../../src/project/session-permissions.js';
import { FileStateTracker } from '../../../src/tools/files/file-state-tracker.js';
import type { PermissionRuleSet } from '../../../src/tools/permissions/match-permission-rules.js';
import type { PermissionMode } from '../../../src/tools/permissions/permission-modes.js';
import { permissionsStoreDir } from '../../../src/tools/permissions/manage-remembered-permissions.js';
import { defaultSandboxPolicy, type SandboxPolicy } from '../../../src/tools/sandbox/sandbox-policy.js';
import type { Tool, ToolResult } from '../../../src/tools/tool.js';
import { makeContext } from '../tool-test-context.js';

/** What the user (a real asker function) answers to the nth question. */
export type Answerer = (question: PermissionQuestionForClient, index: number) => PermissionAnswer | Promise<PermissionAnswer>;

/**
 * The session's real permission path (createSessionPermissions, as runSessionTools uses
 * it) with the real tools on a temporary workspace: `run` decides a call, asks the
 * answerer when the decision is to ask, and runs the tool with the session's gate.
 */
export function sessionPermissionHarness(options: {
  cwd: string;
  dataDir: string;
  mode: PermissionMode;
  rules?: PermissionRuleSet[];
  answer: Answerer;
  additionalDirectories?: string[];
  /** What the sandbox hides (the daemon's, from the environment, when absent): the session's access policy and the tools' settings. */
  sandboxPolicy?: SandboxPolicy;
  /** Hands the tool's preview to the question, as the session does (the diff a question may carry). */
  withPreview?: boolean;
  /** Runs after the call was allowed and before the tool starts: the attacker's moment to swap a link. */
  beforeExecute?: () => void;
}): {
  questions: PermissionQuestionForClient[];
  run<A>(tool: Tool<A>, args: Record<string, unknown>): Promise<{ permit: PermitDecision; result?: ToolResult }>;
} {
  const questions: PermissionQuestionForClient[] = [];
  const sessionId = 'session-escape';
  const sandboxPolicy = options.sandboxPolicy ?? defaultSandboxPolicy();
  const fileState = new FileStateTracker();
  let calls = 0;
  const run = async <A>(tool: Tool<A>, args: Record<string, unknown>): Promise<{ permit: PermitDecision; result?: ToolResult }> => {
    calls += 1;
    const id = `call-${calls}`;
    const signal = new AbortController().signal;
    const permissions = createSessionPermissions({
      sessionId,
      cwd: options.cwd,
      additionalDirectories: options.additionalDirectories ?? [],
      rules: options.rules ?? [],
      mode: options.mode,
      permissionsDir: permissionsStoreDir(options.dataDir),
      asker: async (question) => {
        questions.push(question);
        return options.answer(question, questions.length - 1);
      },
      access: accessPolicy(sandboxPolicy, options.dataDir, sessionId),
    });
    const title = tool.title(args as never);
    const permit = await permissions.permit(
      {
        id,
        title,
        tool: tool.name,
        kind: tool.kind,
        access: tool.access,
        ...(tool.accessFromHint ? { accessFromHint: true } : {}),
        args,
        ...(options.withPreview && tool.preview ? { preview: (resolved: Record<string, unknown>) => tool.preview!(resolved as never, { cwd: options.cwd }) } : {}),
      },
      signal,
    );
    if (!permit.allowed) return { permit };
    options.beforeExecute?.();
    const ctx = makeContext(options.cwd, {
      permission: permissions.gateFor({ id, title, kind: tool.kind }, signal),
      fileState,
      dataDir: options.dataDir,
      additionalDirectories: options.additionalDirectories ?? [],
      sessionId,
      settings: { sandboxPolicy },
    });
    return { permit, result: await tool.execute(args as never, ctx) };
  };
  return { questions, run };
}
