import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createBashTool } from '../../src/tools/builtin/bash.js';
import { detectSandbox } from '../../src/tools/sandbox/detect-sandbox.js';
import { resolveSandboxMounts } from '../../src/tools/sandbox/resolve-sandbox-mounts.js';
import { defaultSandboxPolicy } from '../../src/tools/sandbox/sandbox-policy.js';
import { wrapCommand } from '../../src/tools/sandbox/wrap-command.js';
import { benchContext } from './bench-context.js';
import { timeInterleaved } from './bench-stats.js';

/** Spawns a program and resolves when it has exited and its pipes are closed. */
function run(file: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited with ${code}`))));
  });
}

/**
 * Start-up overhead of the bash tool (the search tools benchmark): our tool running `true`
 * sandboxed by bubblewrap and unsandboxed (allow-all permission gate), against
 * `spawn('bash', ['-c', 'true'])` directly and bwrap run directly with the tool's own
 * arguments (wrapCommand), which splits the sandbox's cost from ours. Median and p90 of
 * `--runs` (default 50) after `--warmup` (default 5), cases interleaved run by run.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '50' }, warmup: { type: 'string', default: '5' } } });
  const sandbox = await detectSandbox();
  if (sandbox.mode !== 'bubblewrap') throw new Error(`bubblewrap does not work here (${sandbox.reason ?? 'unknown'}); the sandboxed case cannot run`);
  const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'agentd-bench-bash-')));
  try {
    const bash = createBashTool();
    const sandboxed = benchContext(workspace, sandbox);
    const unsandboxed = benchContext(workspace, { mode: 'none', reason: 'benchmark: the unsandboxed path' });
    const outputDir = path.join(sandboxed.dataDir, 'tool-output', sandboxed.sessionId);
    // The first tool call creates the output folder that the bwrap case binds.
    const tool = async (ctx: typeof sandboxed): Promise<void> => {
      const result = await bash.execute({ command: 'true' }, ctx);
      if (result.isError || result.details?.exitCode !== 0) throw new Error(`bash tool failed: ${JSON.stringify(result)}`);
    };
    await tool(sandboxed);
    const mounts = resolveSandboxMounts({
      hidden: defaultSandboxPolicy().hidden,
      roots: [{ dir: workspace, writable: true }],
      readOnly: [outputDir],
    });
    const wrapped = wrapCommand('bubblewrap', { argv: ['bash', '-c', 'true'], cwd: workspace, mounts, allowNetwork: false });
    const timings = await timeInterleaved(
      {
        'spawn bash -c true': () => run('bash', ['-c', 'true'], workspace),
        'bash tool, unsandboxed': () => tool(unsandboxed),
        'bwrap … bash -c true (wrapCommand args)': () => run(wrapped.file, wrapped.args, workspace),
        'bash tool, bubblewrap sandbox': () => tool(sandboxed),
      },
      Number(values.runs),
      Number(values.warmup),
    );
    const base = timings['spawn bash -c true']!.medianMs;
    console.log(`node ${process.version}, runs ${values.runs} after ${values.warmup} warm-up\n`);
    console.log('| case | median ms | p90 ms | min ms | median over plain spawn |');
    console.log('|---|---|---|---|---|');
    for (const [name, t] of Object.entries(timings)) {
      console.log(`| ${name} | ${t.medianMs} | ${t.p90Ms} | ${t.minMs} | +${Math.round((t.medianMs - base) * 100) / 100} ms |`);
    }
    console.log('');
    for (const [name, t] of Object.entries(timings)) console.log(JSON.stringify({ bench: 'tools-bash-startup', case: name, ...t }));
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
