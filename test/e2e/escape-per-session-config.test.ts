import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, toolResultText } from '../support/chat-tool-call-sse.js';
import { CLI, daemonEnv, makeHome } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

/**
 * F7: one shared daemon, started in project P, serves sessions of other projects. Each
 * session must get its own project's config, agents, rules and trust, never P's.
 */
describe('per-session project config', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let root: string;
  let p: string;
  let q: string;
  let t: string;
  let daemon: InProcessDaemon;
  /** How each session's permission questions are answered, and how many were asked. */
  const asked: string[] = [];

  const write = (file: string, text: string): void => {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
  };
  const projectConfig = (dir: string, json: unknown): void => write(join(dir, '.agentd', 'config.json'), JSON.stringify(json));
  const agentFile = (dir: string, name: string): void => write(join(dir, '.agentd', 'agents', `${name}.md`), `---\ndescription: ${name} of this project\naccess: read\n---\nYou are ${name}.\n`);

  beforeAll(async () => {
    replay = await startReplayServer();
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agentd-f7-')));
    [p, q, t] = ['p', 'q', 't'].map((name) => join(root, name)) as [string, string, string];
    for (const dir of [p, q, t]) mkdirSync(dir);
    symlinkSync(t, join(root, 't-link'));
    projectConfig(p, { model: 'local/p-model', permissions: { deny: ['write'] } });
    agentFile(p, 'p-agent');
    projectConfig(q, { model: 'local/q-model', permissions: { allow: ['write'] } });
    agentFile(q, 'q-agent');
    projectConfig(t, { permissions: { allow: ['write'] } });
    home = makeHome({
      model: 'local/e2e-model',
      providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, maxRetries: 1, maxRetryDelayMs: 20 } },
      // P is trusted as written; T only through a symlinked spelling with a trailing slash.
      trustedProjects: [p, `${join(root, 't-link')}/`],
    });
    daemon = startInProcessDaemon(daemonEnv(home.home), p);
    daemon.peer.onRequest('session/request_permission', (params: { toolCall: { toolCallId: string } }) => {
      asked.push(params.toolCall.toolCallId);
      return { outcome: { outcome: 'selected', optionId: 'allow_once' } };
    });
    await daemon.peer.call('initialize', { protocolVersion: 1, clientCapabilities: {} });
  });

  afterAll(async () => {
    await daemon.close();
    await replay.close();
    home.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  const newSession = (cwd: string): Promise<{ sessionId: string; modes: { availableModes: Array<{ id: string }> }; configOptions: Array<{ id: string; currentValue: string }> }> =>
    daemon.peer.call('session/new', { cwd, mcpServers: [] }) as Promise<Awaited<ReturnType<typeof newSession>>>;
  const modelOf = (session: Awaited<ReturnType<typeof newSession>>): string => session.configOptions.find((o) => o.id === 'model')!.currentValue;

  /** Prompts a write of `file` and returns the tool result text and whether it was asked. */
  async function promptWrite(sessionId: string, dir: string, file: string): Promise<{ result: string; asked: boolean; model: string }> {
    const before = replay.requests.length;
    const id = `call_${file.replace(/\W/g, '_')}_${before}`;
    replay.enqueue({ body: chatToolCallSse([{ id, name: 'write', arguments: { path: file, content: 'x' } }]) });
    replay.enqueue({ body: chatCompletionSse(['done']) });
    await daemon.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: `write ${file}` }] });
    const model = (replay.requests[before]!.body as { model: string }).model;
    return { result: toolResultText(replay.requests[before + 1]!.body, id), asked: asked.includes(id), model };
  }

  it("[F7 per-session-config] a session in Q gets neither P's model nor P's agent, and gets its own", async () => {
    const session = await newSession(q);
    expect(modelOf(session)).toBe('local/q-model');
    const modes = session.modes.availableModes.map((m) => m.id);
    expect(modes).toContain('q-agent');
    expect(modes).not.toContain('p-agent');
    const inP = await newSession(p);
    expect(modelOf(inP)).toBe('local/p-model');
    expect(inP.modes.availableModes.map((m) => m.id)).toContain('p-agent');
  });

  it("[F7 per-session-config] P's deny rule stays in P's sessions and Q's session runs with its own model", async () => {
    const inP = await newSession(p);
    const denied = await promptWrite(inP.sessionId, p, 'p.txt');
    expect(denied.model).toBe('p-model');
    expect(denied.asked).toBe(false);
    expect(denied.result).toMatch(/Permission denied/);
    expect(existsSync(join(p, 'p.txt'))).toBe(false);

    const inQ = await newSession(q);
    const written = await promptWrite(inQ.sessionId, q, 'q.txt');
    expect(written.model).toBe('q-model');
    expect(written.result).not.toMatch(/Permission denied/);
    expect(existsSync(join(q, 'q.txt'))).toBe(true);
  });

  it('[F7 per-session-config] a trusted P does not make Q trusted: Q\'s own allow rule is ignored, so its write asks', async () => {
    const inQ = await newSession(q);
    const { asked: wasAsked } = await promptWrite(inQ.sessionId, q, 'asked.txt');
    expect(wasAsked).toBe(true);
    expect(daemon.stderr()).toContain(`ignored permissions.allow in ${q}/.agentd/config.json`);
  });

  it('[F7 per-session-config] trust follows a symlinked, trailing-slash spelling of the project', async () => {
    for (const cwd of [t, join(root, 't-link')]) {
      const session = await newSession(cwd);
      const { asked: wasAsked, result } = await promptWrite(session.sessionId, t, `trusted-${cwd.length}.txt`);
      expect(wasAsked).toBe(false);
      expect(result).not.toMatch(/Permission denied/);
    }
    expect(daemon.stderr()).not.toContain(`ignored permissions.allow in ${t}`);
  });

  it('[F7 per-session-config] a project config changed between two sessions is picked up by the second', async () => {
    const dir = join(root, 'changing');
    projectConfig(dir, { model: 'local/first' });
    expect(modelOf(await newSession(dir))).toBe('local/first');
    projectConfig(dir, { model: 'local/second-model' });
    agentFile(dir, 'late-agent');
    const second = await newSession(dir);
    expect(modelOf(second)).toBe('local/second-model');
    expect(second.modes.availableModes.map((m) => m.id)).toContain('late-agent');
  });

  it('[F7 per-session-config] an invalid project config refuses the session with the file, the path and the fix', async () => {
    const dir = join(root, 'broken');
    projectConfig(dir, { maxTurns: 'ten' });
    const answer = await daemon.peer.request('session/new', { cwd: dir, mcpServers: [] });
    expect(answer.error?.code).toBe(-32602);
    expect(JSON.stringify(answer.error)).toContain(`${dir}/.agentd/config.json: maxTurns: expected a whole number`);
  });

  it("[F7 per-session-config] agentd run --cwd Q started in P runs with Q's config", async () => {
    const before = replay.requests.length;
    replay.enqueue({ body: chatCompletionSse(['hello from q']) });
    // Its own data directory: the serving daemon above owns `home` (one owner per directory).
    const runHome = makeHome(JSON.parse(readFileSync(join(home.home, 'config', 'config.json'), 'utf8')));
    const child = spawn(process.execPath, [CLI, 'run', '--cwd', q, 'hi'], { cwd: p, env: daemonEnv(runHome.home), stdio: 'pipe' });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(stdout).toContain('hello from q');
    expect((replay.requests[before]!.body as { model: string }).model).toBe('q-model');
    runHome.cleanup();
  });
});
