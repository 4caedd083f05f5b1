import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentdOnPath } from '../support/agentd-on-path.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { readmeCodeBlocks } from '../support/readme-code-blocks.js';
import { startReplayServer, type RecordedRequest, type ReplayResponse, type ReplayServer } from '../support/replay-server.js';
import { runProcess } from '../support/run-process.js';

/** The model list an OpenAI-compatible server such as Ollama answers GET /v1/models with. */
const MODELS = JSON.stringify({ object: 'list', data: [{ id: 'qwen3:8b', object: 'model', owned_by: 'library' }] });

/** Answers like the local server the block names: its model list, and a streamed answer per prompt. */
function localServer(request: RecordedRequest): ReplayResponse {
  if (request.path === '/v1/models') return { headers: { 'content-type': 'application/json' }, body: MODELS };
  const asked = JSON.stringify(request.body);
  if (asked.includes('explain what this repository does')) return { body: chatCompletionSse(['It builds with make.']) };
  if (asked.includes('summarise the diff')) return { body: chatCompletionSse(['No changes.']) };
  return { status: 404, headers: { 'content-type': 'text/plain' }, body: `no answer for ${request.method} ${request.path}` };
}

/** The README's "Try it" block, run by sh exactly as printed, against a stand-in on the port it names. */
describe('the README\'s "Try it" block, run as printed', () => {
  const block = readmeCodeBlocks('README.md', '## Try it', 'sh')[0]!;
  let server: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let bin: ReturnType<typeof agentdOnPath>;
  let repo: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const port = Number(/OPENAI_BASE_URL=http:\/\/127\.0\.0\.1:(\d+)\/v1/.exec(block)?.[1]);
    expect(port, 'the block sets OPENAI_BASE_URL to a loopback port').toBeGreaterThan(0);
    server = await startReplayServer({ port, respond: localServer });
    home = makeHome();
    bin = agentdOnPath();
    env = { ...daemonEnv(home.home), PATH: bin.path(process.env), GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
    repo = mkdtempSync(join(tmpdir(), 'agentd-repo-'));
    writeFileSync(join(repo, 'Makefile'), 'all:\n\ttrue\n');
    execFileSync('git', ['init', '-q', '.'], { cwd: repo, env });
    execFileSync('git', ['add', '.'], { cwd: repo, env });
    execFileSync('git', ['commit', '-qm', 'first'], { cwd: repo, env });
  });
  afterAll(async () => {
    await server?.close();
    home?.cleanup();
    bin?.cleanup();
    if (repo) rmSync(repo, { recursive: true, force: true });
  });

  it('has the commands this test knows', () => {
    const commands = block.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
    expect(commands.map((line) => line.split('#')[0]!.trim().split(' ').slice(0, 2).join(' '))).toEqual([
      'export OPENAI_BASE_URL=http://127.0.0.1:11434/v1',
      'agentd run',
      'agentd doctor',
      'agentd models',
      'echo "summarise',
    ]);
  });

  it('answers a prompt, passes doctor, lists the server\'s model, and streams NDJSON for a prompt from stdin', { timeout: 60_000 }, async () => {
    // -e: the first command that fails stops the block, so exit 0 means every command exited 0.
    const ran = await runProcess('sh', ['-e', '-c', block], { env, cwd: repo, stdin: '' });
    expect(ran.code, ran.stderr).toBe(0);
    const out = ran.stdout;
    expect(out.startsWith('It builds with make.\n')).toBe(true);
    expect(out).toMatch(/^ok +provider openai .*from OPENAI_BASE_URL.*\/v1\/models lists 1 model$/m);
    expect(out).toMatch(/^0 failed, /m);
    expect(out).toMatch(/^openai\/qwen3:8b .* yes$/m);
    const events = out.slice(out.indexOf('\n{')).trim().split('\n').map((line) => JSON.parse(line) as { method?: string; params?: { update?: { sessionUpdate?: string; content?: { text?: string } } }; result?: unknown });
    expect(events.some((e) => e.params?.update?.sessionUpdate === 'agent_message_chunk' && e.params.update.content?.text === 'No changes.')).toBe(true);
    expect(events.at(-1)).toMatchObject({ result: { stopReason: 'end_turn' } });
    const chats = server.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chats.map((r) => (r.body as { model?: string }).model)).toEqual(['qwen3:8b', 'qwen3:8b']);
  });
});
