import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../../src/config/agentd-paths.js';
import { createBashTool } from '../../../src/tools/builtin/bash.js';
import { buildSandboxPolicy } from '../../../src/tools/sandbox/sandbox-policy.js';
import { processAlive } from '../../../src/tools/shell/kill-process-group.js';
import { denyAllGate } from '../../../src/tools/permission-gate.js';
import { makeContext, makeTempDir, recordingGate, textOf, type TempDir } from '../tool-test-context.js';
import { BUBBLEWRAP, requireProgram } from '../../support/required-program.js';

const hasBubblewrap = requireProgram(BUBBLEWRAP);

const bash = createBashTool();

async function waitUntil(check: () => boolean, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe('bash (unsandboxed, permission granted)', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());

  it('runs in cwd with stdout and stderr interleaved in order', async () => {
    const result = await bash.execute({ command: 'pwd; echo out1; echo err1 >&2; echo out2' }, makeContext(tmp.dir));
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe(`${tmp.dir}\nout1\nerr1\nout2`);
    expect(result.details?.exitCode).toBe(0);
  });

  it('reports a non-zero exit as a normal result with the code', async () => {
    const result = await bash.execute({ command: 'echo failing; exit 3' }, makeContext(tmp.dir));
    expect(result.isError).toBeUndefined();
    expect(result.details?.exitCode).toBe(3);
    expect(textOf(result)).toBe('failing\n\n[Exit code 3]');
  });

  it('says when there is no output, and gives stdin as EOF', async () => {
    expect(textOf(await bash.execute({ command: 'true' }, makeContext(tmp.dir)))).toBe('(no output)');
    expect(textOf(await bash.execute({ command: 'cat; echo done' }, makeContext(tmp.dir)))).toBe('done');
  });

  it('kills the whole process group on timeout', async () => {
    const pidFile = path.join(tmp.dir, 'child.pid');
    const result = await bash.execute(
      { command: `sleep 30 & echo $! > ${pidFile}; echo waiting; wait`, timeoutMs: 1000 },
      makeContext(tmp.dir),
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('waiting');
    expect(textOf(result)).toContain('[Timed out after 1 s; the command and its children were killed.]');
    const childPid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(childPid).toBeGreaterThan(0);
    expect(await waitUntil(() => !processAlive(childPid))).toBe(true);
  });

  it('does not hang when a background child keeps stdout open', async () => {
    const pidFile = path.join(tmp.dir, 'bg.pid');
    const started = Date.now();
    const result = await bash.execute({ command: `sleep 100 & echo $! > ${pidFile}; echo started` }, makeContext(tmp.dir));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe('started');
    const childPid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(await waitUntil(() => !processAlive(childPid))).toBe(true);
  });

  it('keeps head and tail of long output and saves the whole output to a file', async () => {
    const ctx = makeContext(tmp.dir);
    const result = await bash.execute({ command: 'seq 1 20000' }, ctx);
    const text = textOf(result);
    const full = Array.from({ length: 20000 }, (_, i) => String(i + 1)).join('\n') + '\n';
    expect(result.details?.truncated).toBe(true);
    const saved = result.details?.fullOutputPath;
    expect(saved?.startsWith(path.join(ctx.dataDir, 'tool-output'))).toBe(true);
    expect(fs.readFileSync(saved ?? '', 'utf8')).toBe(full);
    expect(text.startsWith('1\n2\n3\n')).toBe(true);
    expect(text).toContain('19999\n20000');
    expect(text).toContain('characters omitted');
    expect(text).toContain(`the full output is in ${saved}`);
    expect(text.length).toBeLessThan(31_000);
  });

  it('stops on abort and kills the command', async () => {
    const controller = new AbortController();
    const pidFile = path.join(tmp.dir, 'abort.pid');
    setTimeout(() => controller.abort(), 300);
    const result = await bash.execute(
      { command: `sleep 30 & echo $! > ${pidFile}; wait` },
      makeContext(tmp.dir, { signal: controller.signal }),
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('[Aborted; the command and its children were killed.]');
    expect(await waitUntil(() => !processAlive(Number(fs.readFileSync(pidFile, 'utf8'))))).toBe(true);
  });

  it('passes only the allowlisted environment, plus what the policy adds, never a provider key', async () => {
    const env = {
      PATH: process.env.PATH,
      LANG: 'C.UTF-8',
      LC_TIME: 'C',
      OPENAI_API_KEY: 'sk-1',
      GITHUB_TOKEN: 'gh-2',
      DB_SECRET: 's-3',
      AGENTD_HOME: '/x',
      KEEP_ME: 'visible',
      JAVA_HOME: '/opt/java',
    };
    const { policy, warnings } = buildSandboxPolicy({
      paths: resolveAgentdPaths({ AGENTD_HOME: path.join(tmp.dir, 'agentd') }),
      config: { sandbox: { env: ['JAVA_HOME', 'OPENAI_API_KEY'] } },
      env,
    });
    expect(warnings).toEqual([expect.stringContaining('sandbox.env lists "OPENAI_API_KEY"')]);
    const text = textOf(await createBashTool({ policy }).execute({ command: 'env' }, makeContext(tmp.dir, { env })));
    expect(text).toContain('LANG=C.UTF-8');
    expect(text).toContain('LC_TIME=C');
    expect(text).toContain('JAVA_HOME=/opt/java');
    for (const hidden of ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'DB_SECRET', 'AGENTD_HOME', 'KEEP_ME', 'sk-1', 'gh-2', 's-3']) {
      expect(text).not.toContain(hidden);
    }
  });

  it('streams progress while the command runs', async () => {
    // The first progress update aborts the call: it can only arrive while the command still runs.
    const controller = new AbortController();
    const ctx = makeContext(tmp.dir, { signal: controller.signal });
    ctx.onProgress = (update) => {
      ctx.progress.push(update);
      controller.abort();
    };
    const result = await bash.execute({ command: 'echo first; sleep 30; echo never' }, ctx);
    expect(ctx.progress[0]).toEqual({ delta: 'first\n', output: 'first\n' });
    expect(textOf(result)).toContain('first');
    expect(textOf(result)).toContain('[Aborted');
    expect(textOf(result)).not.toContain('never');
  });

  it('asks before running unsandboxed, and does not run when denied', async () => {
    const marker = path.join(tmp.dir, 'ran');
    const refused = await bash.execute(
      { command: `touch ${marker}` },
      makeContext(tmp.dir, { permission: denyAllGate, sandbox: { mode: 'none', reason: 'bwrap missing' } }),
    );
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('sandbox is unavailable');
    expect(fs.existsSync(marker)).toBe(false);

    const gate = recordingGate('allow');
    await bash.execute({ command: `touch ${marker}` }, makeContext(tmp.dir, { permission: gate, sandbox: { mode: 'none', reason: 'bwrap missing' } }));
    expect(fs.existsSync(marker)).toBe(true);
    expect(gate.requests[0]?.access).toBe('execute');
    expect(gate.requests[0]?.reason).toContain('bwrap missing');
  });
});

describe.skipIf(!hasBubblewrap)('bash (sandboxed with bubblewrap)', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());

  it('runs in the workspace, can write there, and does not ask', async () => {
    const ctx = makeContext(tmp.dir, { permission: denyAllGate, sandbox: { mode: 'bubblewrap' } });
    const result = await bash.execute({ command: 'echo hi > made.txt && cat made.txt && pwd' }, ctx);
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe(`hi\n${tmp.dir}`);
    expect(fs.readFileSync(path.join(tmp.dir, 'made.txt'), 'utf8')).toBe('hi\n');
  });

  it('ends background children with the command and still saves long output', async () => {
    const ctx = makeContext(tmp.dir, { sandbox: { mode: 'bubblewrap' } });
    const quick = await bash.execute({ command: 'sleep 100 & echo started' }, ctx);
    expect(textOf(quick)).toBe('started');
    const long = await bash.execute({ command: 'seq 1 20000' }, ctx);
    expect(fs.readFileSync(long.details?.fullOutputPath ?? '', 'utf8').endsWith('19999\n20000\n')).toBe(true);
  });

  it('kills the sandbox on timeout', async () => {
    const ctx = makeContext(tmp.dir, { sandbox: { mode: 'bubblewrap' } });
    const started = Date.now();
    const result = await bash.execute({ command: 'echo begun; sleep 30', timeoutMs: 1000 }, ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('begun');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
