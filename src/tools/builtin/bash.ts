import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { OutputCollector } from '../shell/output-collector.js';
import { workspaceRoots } from '../access/path-confinement.js';
import { runShell } from '../shell/run-shell.js';
import { resolveSandboxMounts, type SandboxMounts } from '../sandbox/resolve-sandbox-mounts.js';
import { sandboxEnv } from '../sandbox/sandbox-env.js';
import { defaultSandboxPolicy, type SandboxPolicy } from '../sandbox/sandbox-policy.js';
import { wrapCommand } from '../sandbox/wrap-command.js';
import { safeName, toolOutputDir } from '../shell/tool-output-dir.js';
import type { Tool, ToolContext } from '../tool.js';
import { errorResult, ToolError } from '../tool-error.js';

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
/** Progress updates are sent at most this often. */
const PROGRESS_INTERVAL_MS = 250;

/** Settings of the bash tool. */
export interface BashToolOptions {
  /** Let sandboxed commands use the network; the policy's `allowNetwork` when unset. */
  allowNetwork?: boolean;
  /**
   * What the sandbox hides and which variables pass (the daemon builds it from its paths and
   * config); without it, the policy of a daemon on `ctx.env` with an empty config.
   */
  policy?: SandboxPolicy;
}

export const bashSchema = z
  .object({
    command: z.string().min(1).describe('The shell command line, run with bash -c in the working directory.'),
    timeoutMs: z
      .number()
      .int()
      .min(1000)
      .max(BASH_MAX_TIMEOUT_MS)
      .optional()
      .describe(`Timeout in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS}, max ${BASH_MAX_TIMEOUT_MS}).`),
    description: z.string().optional().describe('What the command does, in a few words, shown to the user.'),
  })
  .strict();

export type BashArgs = z.infer<typeof bashSchema>;

/** The bash tool; sandboxed with bubblewrap when `ctx.sandbox.mode` is `bubblewrap`. */
export function createBashTool(options: BashToolOptions = {}): Tool<BashArgs> {
  return {
    name: 'bash',
    description:
      'Run a shell command (bash -c) in the working directory. stdout and stderr come back together; long output ' +
      `is cut to its start and end with the full text saved to a file. Default timeout ${BASH_DEFAULT_TIMEOUT_MS / 1000} s. ` +
      'stdin is empty, so interactive programs get EOF. Background jobs end when the command ends. ' +
      'When sandboxed, commands can write only inside the workspace (not its .git/ or .agentd/), ' +
      ((options.allowNetwork ?? options.policy?.allowNetwork) ? 'and credentials are hidden.' : 'credentials are hidden and there is no network.'),
    inputSchema: bashSchema,
    kind: 'execute',
    access: 'execute',
    sequential: true,
    timeoutMs: (args) => args.timeoutMs,
    title: (args) => args.description ?? `Run ${oneLine(args.command)}`,
    async execute(args, ctx) {
      try {
        return await runBash(args, ctx, options);
      } catch (error) {
        return errorResult(error);
      }
    },
  };
}

async function runBash(args: BashArgs, ctx: ToolContext, options: BashToolOptions): ReturnType<Tool['execute']> {
  if (ctx.sandbox.mode === 'none') {
    const answer = await ctx.permission.check({
      tool: 'bash',
      access: 'execute',
      args,
      reason: `The bash sandbox is unavailable (${ctx.sandbox.reason ?? 'unknown reason'}), so this command would run unconfined, with your full access to files and network.`,
    });
    if (answer !== 'allow') {
      throw new ToolError('The command was not run: the sandbox is unavailable and the user did not allow running it unconfined.');
    }
  }
  const [cwd = ctx.cwd, ...extraDirs] = await workspaceRoots(ctx);
  // bwrap refuses to bind a missing source; an additional directory that is gone is skipped.
  const writableDirs = extraDirs.filter((dir) => existsSync(dir));
  // One folder per session: the sandbox shows a command its own session's outputs only.
  const outputDir = toolOutputDir(ctx.dataDir, ctx.sessionId);
  await mkdir(outputDir, { recursive: true });
  const policy = ctx.settings?.sandboxPolicy ?? options.policy ?? defaultSandboxPolicy(ctx.env ?? process.env);
  const mounts =
    ctx.sandbox.mode === 'none'
      ? undefined
      : resolveSandboxMounts({
          // The data dir the session uses is hidden even when the policy was built for another.
          hidden: [...policy.hidden, { path: ctx.dataDir, reason: 'agentd', layer: 'strict' }],
          roots: [cwd, ...writableDirs].map((dir) => ({ dir, writable: true })),
          readOnly: [outputDir],
          trustedProjects: policy.trustedProjects,
        });
  const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeName(ctx.toolCallId)}-${randomBytes(3).toString('hex')}`;
  const collector = new OutputCollector(path.join(outputDir, `bash-${id}.log`));

  let delta = '';
  let progressTimer: NodeJS.Timeout | undefined;
  const flushProgress = (): void => {
    progressTimer = undefined;
    if (delta === '') return;
    ctx.onProgress({ delta, output: collector.view() });
    delta = '';
  };

  const wrapped = wrapCommand(ctx.sandbox.mode, {
    argv: ['bash', '-c', args.command],
    cwd,
    mounts: mounts ?? emptyMounts,
    // A trusted project's sandbox.network reaches its sessions through ctx.settings.
    allowNetwork: ctx.settings?.bashNetwork ?? options.allowNetwork ?? policy.allowNetwork,
  });
  const exit = await runShell(wrapped, {
    cwd,
    env: sandboxEnv(ctx.env ?? process.env, policy.env),
    timeoutMs: args.timeoutMs ?? BASH_DEFAULT_TIMEOUT_MS,
    signal: ctx.signal,
    onOutput: (text) => {
      collector.push(text);
      delta += text;
      progressTimer ??= setTimeout(flushProgress, PROGRESS_INTERVAL_MS);
    },
  });
  if (progressTimer) clearTimeout(progressTimer);
  flushProgress();
  if (mounts) await removeMountPoints(mounts);
  const output = await collector.finish();

  const parts = [output.text === '' ? '(no output)' : output.text.replace(/\n$/, '')];
  if (output.fullOutputPath) parts.push(`[Output was ${output.totalChars} characters; the full output is in ${output.fullOutputPath}]`);
  const details = {
    exitCode: exit.exitCode ?? undefined,
    truncated: output.truncated || undefined,
    fullOutputPath: output.fullOutputPath,
  };
  if (exit.timedOut || exit.aborted) {
    const seconds = (args.timeoutMs ?? BASH_DEFAULT_TIMEOUT_MS) / 1000;
    parts.push(exit.timedOut ? `[Timed out after ${seconds} s; the command and its children were killed.]` : '[Aborted; the command and its children were killed.]');
    return { content: [{ type: 'text', text: parts.join('\n\n') }], isError: true, details: pruned(details) };
  }
  if (exit.exitCode !== 0) parts.push(exit.exitCode === null ? `[Killed by ${exit.signal ?? 'a signal'}]` : `[Exit code ${exit.exitCode}]`);
  return { content: [{ type: 'text', text: parts.join('\n\n') }], details: pruned(details) };
}

const emptyMounts: SandboxMounts = { systemHidden: [], reveal: [], roots: [], protected: [], hidden: [], readOnly: [] };

/**
 * bwrap creates the mount point of an absent `.git` or `.agentd` in the real workspace;
 * it is removed again when still empty (rmdir fails on anything a host process put there).
 */
async function removeMountPoints(mounts: SandboxMounts): Promise<void> {
  await Promise.all(mounts.protected.filter((entry) => !entry.exists).map((entry) => rmdir(entry.path).catch(() => undefined)));
}

function pruned<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function oneLine(command: string): string {
  const first = command.split('\n')[0] ?? '';
  const cut = first.length > 80 ? `${first.slice(0, 80)}…` : first;
  return command.includes('\n') ? `${cut} …` : cut;
}
