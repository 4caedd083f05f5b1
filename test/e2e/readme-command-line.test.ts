import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { openStore } from '../../src/store/open-store.js';
import { agentdOnPath } from '../support/agentd-on-path.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { readmeCodeBlocks } from '../support/readme-code-blocks.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { requireProgram } from '../support/required-program.js';
import { runProcess } from '../support/run-process.js';

const hasJq = requireProgram({ command: 'jq', debianPackage: 'jq', neededBy: "the README's command-line examples" });

/** The README's "Command line" examples, each line run by sh exactly as printed, in a git checkout with a change. */
describe.skipIf(!hasJq)("the README's command-line examples, run as printed", () => {
  const lines = readmeCodeBlocks('README.md', '### Command line', 'sh')[0]!.trimEnd().split('\n');
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let bin: ReturnType<typeof agentdOnPath>;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  const sh = (line: string) => runProcess('sh', ['-c', line], { env, cwd: repo, stdin: '' });

  beforeAll(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    bin = agentdOnPath();
    env = { ...daemonEnv(home.home), PATH: bin.path(process.env), GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
    repo = mkdtempSync(join(tmpdir(), 'agentd-repo-'));
    writeFileSync(join(repo, 'build.sh'), 'make\n');
    execFileSync('git', ['init', '-q', '.'], { cwd: repo, env });
    execFileSync('git', ['add', '.'], { cwd: repo, env });
    execFileSync('git', ['commit', '-qm', 'first'], { cwd: repo, env });
    writeFileSync(join(repo, 'build.sh'), 'make all\n');
    // Older sessions, enough that `agentd sessions --json | head -1` closes the pipe while agentd still writes.
    const paths = resolveAgentdPaths(env);
    mkdirSync(paths.dataDir, { recursive: true });
    const store = openStore(paths.databaseFile);
    for (let i = 0; i < 400; i++) await store.createSession({ id: `old-${i}-${'0'.repeat(30)}`, cwd: '/elsewhere', title: `older session ${i} ${'x'.repeat(100)}` });
    store.close();
  });
  afterAll(async () => {
    await replay.close();
    home.cleanup();
    bin.cleanup();
    rmSync(repo, { recursive: true, force: true });
  });

  it('has the five lines this test knows', async () => {
    expect(lines.map((line) => line.split('#')[0]!.trim().split(' ').slice(0, 3).join(' '))).toEqual([
      'agentd run "Why',
      'git diff |',
      'agentd run --continue',
      'agentd run --json',
      'agentd sessions show',
    ]);
  });

  it('runs a prompt, a prompt from stdin with the plan agent, a continued one, JSON lines, and shows the session', { timeout: 60_000 }, async () => {
    replay.enqueue({ body: chatCompletionSse(['A typo in build.sh.']) });
    expect(await sh(lines[0]!)).toMatchObject({ code: 0, stdout: 'A typo in build.sh.\n' });

    replay.enqueue({ body: chatCompletionSse(['It adds "all".']) });
    expect(await sh(lines[1]!)).toMatchObject({ code: 0, stdout: 'It adds "all".\n' });
    expect(JSON.stringify(replay.requests[1]!.body)).toContain('+make all');

    replay.enqueue({ body: chatCompletionSse(['Fixed.']) });
    expect(await sh(lines[2]!)).toMatchObject({ code: 0, stdout: 'Fixed.\n' });
    expect(JSON.stringify(replay.requests[2]!.body)).toContain('+make all');

    replay.enqueue({ body: chatCompletionSse(['TODO: none.']) });
    const json = await sh(lines[3]!);
    expect(json.code).toBe(0);
    const printed = json.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(printed).not.toContain(null);
    expect(printed.some((p) => p.sessionUpdate === 'agent_message_chunk')).toBe(true);
    expect(printed.at(-1)).toMatchObject({ stopReason: 'end_turn' });

    const shown = await sh(lines[4]!);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toContain('# List the TODOs');
    expect(shown.stdout).toContain('TODO: none.');
  });
});
