import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { OutputCollector } from '../output-collector.js';
import { workspaceRoots } from '../path-confinement.js';
import { runShell } from '../run-shell.js';
import { wrapCommand } from '../sandbox/wrap-command.js';
import { scrubEnv } from '../scrub-env.js';
import type { Tool, ToolContext } from '../tool.js';
import { errorResult, ToolError } from '../tool-error.js';

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
/** Progress updates are sent at most this often. */
const PROGRESS_INTERVAL_MS = 250;

/** Settings of the bash tool. */
export interface BashToolOptions {
  /** Let sandboxed commands use the network (default false: an empty network namespace). */
  allowNetwork?: boolean;
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
      (options.allowNetwork ? '' : 'When sandboxed, commands can write only inside the workspace and have no network.'),
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
  const outputDir = path.join(ctx.dataDir, 'tool-output');
  await mkdir(outputDir, { recursive: true });
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
    command: args.command,
    cwd,
    writableDirs,
    readOnlyDirs: [outputDir],
    allowNetwork: (ctx.settings ? ctx.settings.bashNetwork : options.allowNetwork) ?? false,
  });
  const exit = await runShell(wrapped, {
    cwd,
    env: scrubEnv(ctx.env ?? process.env),
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

function pruned<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function oneLine(command: string): string {
  const first = command.split('\n')[0] ?? '';
  const cut = first.length > 80 ? `${first.slice(0, 80)}…` : first;
  return command.includes('\n') ? `${cut} …` : cut;
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40) || 'call';
}
