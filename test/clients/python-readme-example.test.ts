import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { connectWhenListening, daemonEnv, makeHome, spawnDaemon, type DaemonChild } from '../support/daemon-process.js';
import { readmeCodeBlocks } from '../support/readme-code-blocks.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { PYTHON3, requireProgram } from '../support/required-program.js';
import { runProcess } from '../support/run-process.js';

const PYTHON_SRC = fileURLToPath(new URL('../../clients/python/src', import.meta.url));
const hasPython = requireProgram(PYTHON3);

/** The README's Python example, run by python3 exactly as printed, against a daemon on the default socket. */
describe.skipIf(!hasPython)("the README's Python example, run as printed", () => {
  const example = readmeCodeBlocks('README.md', '### Python', 'python')[0]!;
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemon: DaemonChild;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, maxRetries: 0 } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    env = daemonEnv(home.home);
    // `agentd serve --socket` with no path listens where Client.connect() looks by default.
    daemon = spawnDaemon(['serve', '--socket'], env, workspace);
    (await connectWhenListening(resolveAgentdPaths(env).socketPath)).close();
  });
  afterAll(async () => {
    daemon?.child.kill('SIGTERM');
    await Promise.race([daemon?.exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
    daemon?.child.kill('SIGKILL');
    await replay?.close();
    home?.cleanup();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('answers the permission question with allow_once and prints the stop reason and the text', { timeout: 60_000 }, async () => {
    // The model writes the entry (a write asks permission; the example allows it once), then answers.
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_write', name: 'write', arguments: { path: 'CHANGELOG.md', content: '- Fixed the build.\n' } }]) });
    replay.enqueue({ body: chatCompletionSse(['Added the entry.']) });
    const run = await runProcess('python3', ['-c', example], {
      cwd: workspace,
      env: { ...env, PYTHONPATH: PYTHON_SRC, PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(run, run.stderr).toMatchObject({ code: 0, stdout: 'end_turn Added the entry.\n' });
    expect(readFileSync(join(workspace, 'CHANGELOG.md'), 'utf8')).toBe('- Fixed the build.\n');
    expect(JSON.stringify(replay.requests[0]!.body)).toContain('Add a CHANGELOG entry for the last commit');
  });

  it("clients/python/README.md's example prints the stop reason and the answer", { timeout: 60_000 }, async () => {
    const clientExample = readmeCodeBlocks('clients/python/README.md', '# agentd for Python', 'python')[0]!;
    replay.enqueue({ body: chatCompletionSse(['An agent runtime.']) });
    const run = await runProcess('python3', ['-c', clientExample], {
      cwd: workspace,
      env: { ...env, PYTHONPATH: PYTHON_SRC, PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(run, run.stderr).toMatchObject({ code: 0, stdout: 'end_turn An agent runtime.\n' });
  });
});
