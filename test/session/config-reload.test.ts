import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, toolResultText } from '../support/chat-tool-call-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import type { WireMessage } from '../support/rpc-peer.js';
import { agentdMeta } from '../support/agentd-meta.js';

const MCP_FIXTURE = fileURLToPath(new URL('../fixtures/mcp/crashy-server.mjs', import.meta.url));

type Body = { model: string; messages: Array<{ role: string; content: unknown }>; tools?: Array<{ function: { name: string } }> };

/**
 * Edits of the user's and a project's configuration reach a running daemon without a
 * restart: from the next model request of every session of the project (mid-turn too),
 * an invalid edit keeps the last good settings and says what is wrong, and watches
 * follow the sessions.
 */
describe('live configuration', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let root: string;
  let project: string;
  let daemon: InProcessDaemon;

  const userConfig = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    model: 'local/model-a',
    providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/local/v1` } },
    trustedProjects: [project],
    ...extra,
  });
  const writeProject = (config: unknown): void => writeFileSync(join(project, '.agentd', 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  const writeUser = (config: unknown): void => writeFileSync(join(home.home, 'config', 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));

  beforeEach(async () => {
    replay = await startReplayServer();
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agentd-reload-')));
    project = join(root, 'repo', 'app');
    mkdirSync(join(root, 'repo', '.git'), { recursive: true });
    mkdirSync(join(project, '.agentd'), { recursive: true });
    writeFileSync(join(root, 'repo', 'AGENTS.md'), 'Rule one: be brief.');
    writeProject({ maxTurns: 10 });
    home = makeHome(userConfig());
    daemon = startInProcessDaemon(daemonEnv(home.home), root);
    await daemon.peer.call('initialize', { protocolVersion: 1, clientCapabilities: {}, _meta: { agentd: { events: true } } });
  });

  afterEach(async () => {
    await daemon.close();
    await replay.close();
    home.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  /** A session in the project, once its project's watch is in place. */
  async function newSession(cwd = project): Promise<string> {
    const { sessionId } = await daemon.peer.call('session/new', { cwd, mcpServers: [] });
    await (await daemon.context()).reloader.settled();
    return sessionId as string;
  }

  /** The next daemon event matching `test`: one received from now on, never an earlier one. */
  function daemonEvent(test: (event: Record<string, unknown>) => boolean): Promise<WireMessage> {
    const from = daemon.peer.received.length;
    return daemon.peer.waitFor(
      (m) => m.method === 'agentd/daemonEvent' && daemon.peer.received.indexOf(m) >= from && test((m.params as { event: Record<string, unknown> }).event),
      10_000,
      'daemon event',
    );
  }

  const reloadedFile = (file: string): Promise<WireMessage> => daemonEvent((e) => e.type === 'config_reloaded' && e.file === file);

  async function prompt(sessionId: string, text: string): Promise<void> {
    await daemon.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  }

  const systemText = (body: unknown): string => JSON.stringify((body as Body).messages.filter((m) => m.role === 'system'));

  /**
   * A session whose turn calls the client tool `edit_config`; `edit` runs while the turn
   * waits on it, as a user editing files mid-turn.
   */
  async function sessionEditingDuringTurn(edit: () => Promise<void>): Promise<string> {
    writeProject({ permissions: { allow: ['edit_config'] } });
    const sessionId = await newSession();
    await daemon.peer.call('tools/register', {
      tools: [{ name: 'edit_config', description: 'edits the project config', inputSchema: { type: 'object', properties: {} } }],
    });
    daemon.peer.onRequest('tools/call', async () => {
      await edit();
      return { content: [{ type: 'text', text: 'edited' }] };
    });
    return sessionId;
  }

  it('a model, provider and permission change made during a turn applies from its next model request', async () => {
    const configFile = join(project, '.agentd', 'config.json');
    const sessionId = await sessionEditingDuringTurn(async () => {
      const applied = Promise.all([reloadedFile(configFile), reloadedFile(join(home.home, 'config', 'config.json'))]);
      writeUser(userConfig({ providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/local/v1` }, other: { type: 'openai-chat', baseUrl: `${replay.url}/other/v1` } } }));
      writeProject({ model: 'other/model-b', permissions: { deny: ['ls'] } });
      await applied;
    });
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_edit', name: 'edit_config', arguments: {} }]) });
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_ls', name: 'ls', arguments: {} }]) });
    replay.enqueue({ body: chatCompletionSse(['done']) });
    await prompt(sessionId, 'go');

    const [first, second, third] = replay.requests;
    expect(first!.path).toBe('/local/v1/chat/completions');
    expect((first!.body as Body).model).toBe('model-a');
    expect(second!.path).toBe('/other/v1/chat/completions');
    expect((second!.body as Body).model).toBe('model-b');
    expect(toolResultText(second!.body, 'call_edit')).toBe('edited');
    // The deny rule of the edited file refuses the call the model made after it.
    expect(toolResultText(third!.body, 'call_ls')).toMatch(/Permission denied by the configured rules/);
  });

  it('a reload whose model cannot be resolved leaves the running turn on its settings, with a notice', async () => {
    const configFile = join(project, '.agentd', 'config.json');
    const sessionId = await sessionEditingDuringTurn(async () => {
      const applied = reloadedFile(configFile);
      writeProject({ model: 'nowhere/model-x', permissions: { allow: ['edit_config'] } });
      await applied;
    });
    const notice = daemon.peer.waitFor((m) => m.method === 'agentd/event' && (m.params as { event: { type: string } }).event.type === 'notice', 10_000, 'notice');
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_edit', name: 'edit_config', arguments: {} }]) });
    replay.enqueue({ body: chatCompletionSse(['done']) });
    await prompt(sessionId, 'go');
    expect(replay.requests.map((r) => (r.body as Body).model)).toEqual(['model-a', 'model-a']);
    expect(((await notice).params as { event: { message: string } }).event.message).toMatch(
      /^the reloaded configuration cannot be used for this turn \(.*nowhere.*\); it continues with the previous one$/s,
    );
  });

  it('an invalid edit keeps the last good settings and names the file, JSON path and problem to the log, events and the session', async () => {
    writeProject({ model: 'local/model-a' });
    const sessionId = await newSession();
    const configFile = join(project, '.agentd', 'config.json');
    const rejected = daemonEvent((e) => e.type === 'config_rejected');
    const notice = daemon.peer.waitFor((m) => m.method === 'agentd/event' && (m.params as { event: { type: string } }).event.type === 'notice', 10_000, 'notice');
    writeProject({ model: 'local/model-b', maxTurns: 'ten' });
    expect((await rejected).params).toEqual({
      event: { type: 'config_rejected', file: configFile, path: 'maxTurns', problem: expect.stringMatching(/whole number/), sessionIds: [sessionId] },
    });
    const message = (await notice).params as { sessionId: string; event: { message: string } };
    expect(message.sessionId).toBe(sessionId);
    expect(message.event.message).toContain(`${configFile}: maxTurns:`);
    expect(message.event.message).toContain('keeping the last good configuration until the file is fixed');
    expect(daemon.stderr()).toContain(`${configFile}: maxTurns:`);

    // The session runs on: the model of the last good file, not the invalid one's.
    replay.enqueue({ body: chatCompletionSse(['still here']) });
    await prompt(sessionId, 'hello');
    expect((replay.requests.at(-1)!.body as Body).model).toBe('model-a');

    // A JSON syntax error is named by line and column; fixing the file applies it.
    const syntax = daemonEvent((e) => e.type === 'config_rejected' && String(e.problem).startsWith('line 1'));
    writeProject('{"model": ');
    expect(((await syntax).params as { event: { file: string } }).event.file).toBe(configFile);
    const fixed = reloadedFile(configFile);
    writeProject({ model: 'local/model-b' });
    expect(((await fixed).params as { event: { sessionIds: string[] } }).event.sessionIds).toEqual([sessionId]);
    replay.enqueue({ body: chatCompletionSse(['ok']) });
    await prompt(sessionId, 'again');
    expect((replay.requests.at(-1)!.body as Body).model).toBe('model-b');
  });

  it("an invalid edit of the user's file is refused to every live session; a valid one applies", async () => {
    const sessionId = await newSession();
    const userFile = join(home.home, 'config', 'config.json');
    const rejected = daemonEvent((e) => e.type === 'config_rejected');
    writeUser({ ...userConfig(), providers: { local: { type: 'openai-chat', baseUrl: 'not a url' } } });
    expect((await rejected).params).toMatchObject({ event: { file: userFile, path: 'providers.local.baseUrl', sessionIds: [sessionId] } });
    replay.enqueue({ body: chatCompletionSse(['fine']) });
    await prompt(sessionId, 'one');
    expect(replay.requests.at(-1)!.path).toBe('/local/v1/chat/completions');

    const applied = reloadedFile(userFile);
    writeUser(userConfig({ model: 'local/model-c', server: { requestTimeoutMs: 5_000 }, cluster: { roots: [home.home] } }));
    await applied;
    expect(daemon.stderr()).toContain(`server, cluster in ${userFile} changed: this applies when the daemon next starts`);
    // The session's project sets no model: the user's new default applies.
    replay.enqueue({ body: chatCompletionSse(['fine']) });
    await prompt(sessionId, 'two');
    expect((replay.requests.at(-1)!.body as Body).model).toBe('model-c');
  });

  it('a client opening a session after an invalid edit is told the edit was not applied, until a good edit applies', async () => {
    await newSession();
    const userFile = join(home.home, 'config', 'config.json');
    const rejected = daemonEvent((e) => e.type === 'config_rejected');
    writeUser({ ...userConfig(), maxTurns: 'ten' });
    await rejected;
    const opened = await daemon.peer.call('session/new', { cwd: project, mcpServers: [] });
    expect(agentdMeta(opened).problems).toEqual([expect.stringMatching(new RegExp(`^configuration not applied: ${userFile}: maxTurns: .*\\nkeeping the last good configuration until the file is fixed$`))]);

    const applied = reloadedFile(userFile);
    writeUser(userConfig());
    await applied;
    const later = await daemon.peer.call('session/new', { cwd: project, mcpServers: [] });
    expect(agentdMeta(later).problems).toBeUndefined();
  });

  it('an AGENTS.md edit, a new skill and a new agent file reach the next turn of a session in a subfolder', async () => {
    const sub = join(project, 'src');
    mkdirSync(join(sub, '.agentd'), { recursive: true });
    const sessionId = await newSession(sub);
    replay.enqueue({ body: chatCompletionSse(['one']) });
    await prompt(sessionId, 'first');
    expect(systemText(replay.requests.at(-1)!.body)).toContain('Rule one: be brief.');
    expect((await daemon.peer.request('session/set_mode', { sessionId, modeId: 'reviewer' })).error).toBeDefined();

    // The repository root's AGENTS.md, two folders above the session's.
    const agentsFile = join(root, 'repo', 'AGENTS.md');
    let applied = reloadedFile(agentsFile);
    writeFileSync(agentsFile, 'Rule two: cite the file.');
    await applied;
    const skill = join(sub, '.agentd', 'skills', 'deploy', 'SKILL.md');
    applied = reloadedFile(skill);
    mkdirSync(join(sub, '.agentd', 'skills', 'deploy'), { recursive: true });
    writeFileSync(skill, '---\nname: deploy\ndescription: Ships the app to staging\n---\nRun the deploy script.\n');
    await applied;
    const agent = join(sub, '.agentd', 'agents', 'reviewer.md');
    applied = reloadedFile(agent);
    mkdirSync(join(sub, '.agentd', 'agents'), { recursive: true });
    writeFileSync(agent, '---\ndescription: Reviews changes\naccess: read\n---\nYou review diffs.\n');
    await applied;

    replay.enqueue({ body: chatCompletionSse(['two']) });
    await prompt(sessionId, 'second');
    const system = systemText(replay.requests.at(-1)!.body);
    expect(system).toContain('Rule two: cite the file.');
    expect(system).not.toContain('Rule one');
    expect(system).toContain('Ships the app to staging');
    await daemon.peer.call('session/set_mode', { sessionId, modeId: 'reviewer' });
    replay.enqueue({ body: chatCompletionSse(['three']) });
    await prompt(sessionId, 'third');
    expect(systemText(replay.requests.at(-1)!.body)).toContain('You review diffs.');
  });

  it("MCP servers added to the user's or the project's config start, and removed ones stop, for the next model request", async () => {
    const sessionId = await newSession();
    const toolsOfNextRequest = async (): Promise<string[]> => {
      replay.enqueue({ body: chatCompletionSse(['ok']) });
      await prompt(sessionId, 'which tools?');
      return ((replay.requests.at(-1)!.body as Body).tools ?? []).map((t) => t.function.name);
    };
    const serverState = (name: string, state: string): Promise<WireMessage> => daemonEvent((e) => e.type === 'mcp_server' && e.name === name && e.state === state);
    const server = { command: process.execPath, args: [MCP_FIXTURE] };

    let running = serverState('shared', 'running');
    writeUser(userConfig({ mcpServers: { shared: server } }));
    expect(((await running).params as { event: { sessionId?: string } }).event.sessionId).toBeUndefined();
    running = serverState('own', 'running');
    writeProject({ mcpServers: { own: server } });
    expect(((await running).params as { event: { sessionId?: string } }).event.sessionId).toBe(sessionId);
    expect(await toolsOfNextRequest()).toEqual(expect.arrayContaining(['shared__echo', 'own__echo']));

    const stopped = Promise.all([serverState('shared', 'stopped'), serverState('own', 'stopped')]);
    writeUser(userConfig());
    writeProject({});
    await stopped;
    const tools = await toolsOfNextRequest();
    expect(tools.filter((name) => name.includes('__'))).toEqual([]);
    expect(tools).toContain('ls');
  });

  it("schedules added to the user's config are scheduled, and removed ones dropped, without a restart", async () => {
    const userFile = join(home.home, 'config', 'config.json');
    const ids = async (): Promise<string[]> => (await daemon.peer.call('schedules/list', {})).schedules.map((s: { id: string }) => s.id);
    expect(await ids()).toEqual([]);
    // No session here: wait for the watch of the user's files instead.
    await (await daemon.context()).reloader.settled();
    let applied = reloadedFile(userFile);
    writeUser(userConfig({ schedules: [{ name: 'nightly', cron: '0 3 * * *', prompt: 'run the tests', cwd: project }] }));
    await applied;
    expect(await ids()).toEqual(['nightly']);
    applied = reloadedFile(userFile);
    writeUser(userConfig());
    await applied;
    expect(await ids()).toEqual([]);
  });

  it("a project's watch lasts while any of its sessions is live and comes back when one is loaded", async () => {
    const context = await daemon.context();
    const a = await newSession();
    const b = await newSession();
    expect(context.reloader.watchedProjects()).toEqual([project]);
    await daemon.peer.call('session/close', { sessionId: a });
    expect(context.reloader.watchedProjects()).toEqual([project]);
    await daemon.peer.call('session/close', { sessionId: b });
    expect(context.reloader.watchedProjects()).toEqual([]);
    // Loading a stored session watches its project again.
    await daemon.peer.call('session/load', { sessionId: a, cwd: project, mcpServers: [] });
    await context.reloader.settled();
    expect(context.reloader.watchedProjects()).toEqual([project]);
  });
});
