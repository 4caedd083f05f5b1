import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agentd } from '../../clients/typescript/src/index.js';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { tryLockDataDir } from '../../src/store/data-dir-lock.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { startClientDaemon, type ClientDaemon } from '../support/client-daemon.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { sseFrameEnds } from '../support/sse-frame-ends.js';

describe('the TypeScript SDK against a real daemon', () => {
  let d: ClientDaemon;
  const opened: Agentd[] = [];
  beforeEach(async () => {
    d = await startClientDaemon();
  });
  afterEach(async () => {
    for (const agentd of opened.splice(0)) agentd.close();
    await d.close();
  });
  const connect = async (): Promise<Agentd> => {
    const agentd = await Agentd.connect({ socketPath: d.socketPath });
    opened.push(agentd);
    return agentd;
  };

  it('prompts, streams text and a tool call, answers the permission, runs a tool of its own', async () => {
    const agentd = await connect();
    expect(agentd.info.agentInfo?.name).toBe('agentd');
    const asked: string[] = [];
    agentd.onPermission((request) => {
      asked.push(request.toolCall.title ?? '');
      return request.options.find((o) => o.kind === 'allow_once')!.optionId;
    });
    await agentd.registerTool(
      'lookup_ticket',
      { description: 'Look up a ticket by number.', inputSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }, access: 'read', kind: 'fetch' },
      (args) => `Ticket ${String(args.id)}: the build is red on main.`,
    );
    const session = await agentd.newSession({ cwd: d.workspace });

    d.replay.enqueue({ body: chatToolCallSse([{ id: 'call_w', name: 'write', arguments: { path: 'note.txt', content: 'hi\n' } }]) });
    d.replay.enqueue({ body: chatToolCallSse([{ id: 'call_t', name: 'lookup_ticket', arguments: { id: 42 } }]) });
    d.replay.enqueue({ body: chatCompletionSse(['Written, ', 'and ticket 42 is about the red build.']) });
    const turn = session.prompt('write a note, then check ticket 42');
    const kinds: string[] = [];
    for await (const update of turn) kinds.push(update.sessionUpdate);
    const result = await turn;

    expect(result).toEqual({ stopReason: 'end_turn', text: 'Written, and ticket 42 is about the red build.' });
    expect(kinds).toContain('tool_call');
    // Both pieces arrive in one read and go out as one chunk or two; the text is checked above.
    expect(kinds).toContain('agent_message_chunk');
    expect(asked).toHaveLength(1);
    expect(readFileSync(join(d.workspace, 'note.txt'), 'utf8')).toBe('hi\n');
    expect(JSON.stringify(d.replay.requests[2]!.body)).toContain('Ticket 42: the build is red on main.');
  });

  it('steers a running turn and aborts it; the prompt answers cancelled', async () => {
    const agentd = await connect();
    const session = await agentd.newSession({ cwd: d.workspace });
    const body = chatCompletionSse(['Thinking about it', ' for a long time']);
    d.replay.enqueue({ body, stallAfterBytes: sseFrameEnds(body)[1]! });
    const turn = session.prompt('take your time');
    for await (const update of turn) if (update.sessionUpdate === 'agent_message_chunk') break;
    expect(await session.steer('actually, be quick')).toBe(1);
    await session.abort();
    expect(await turn).toEqual({ stopReason: 'cancelled', text: 'Thinking about it' });
  });

  it('spawns its own agentd on stdio, which joins the shared daemon, and joins a turn another client runs', async () => {
    const editor = await connect();
    const session = await editor.newSession({ cwd: d.workspace });
    const body = chatCompletionSse(['Hello', ' there', ', world', ' of', ' agents.']);
    d.replay.enqueue({ body, chunking: { splitAt: sseFrameEnds(body) }, delayMs: 500 });
    const turn = session.prompt('hi');
    for await (const update of turn) if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' && update.content.text === ' there') break;

    const watcher = await Agentd.spawn({ command: [d.node, d.cli, 'serve', '--stdio'], env: d.env });
    opened.push(watcher);
    const { session: joined, history } = await watcher.loadSession(session.id, { cwd: d.workspace });
    // The prompt and its title, then the reply so far (all of it if the turn ended meanwhile), then the live rest.
    expect(history.slice(0, 2).map((u) => u.sessionUpdate)).toEqual(['user_message_chunk', 'session_info_update']);
    let seen = history.flatMap((u) => (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? [u.content.text] : [])).join('');
    expect(seen.startsWith('Hello there')).toBe(true);
    const whole = 'Hello there, world of agents.';
    const done = new Promise<void>((resolve) => {
      if (seen === whole) resolve();
      joined.onUpdate((u) => {
        if (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text') seen += u.content.text;
        if (seen === whole) resolve();
      });
    });
    expect((await turn).text).toBe('Hello there, world of agents.');
    await done;
    expect(seen).toBe('Hello there, world of agents.');
  });

  it('starts a daemon on the socket when none listens and start says how; without start, says what to do', async () => {
    const home = makeHome({});
    const env = daemonEnv(home.home);
    const socketPath = join(home.home, 'own.sock');
    try {
      await expect(Agentd.connect({ socketPath })).rejects.toThrow(`no agentd listens on ${socketPath}`);
      const agentd = await Agentd.connect({ socketPath, start: { command: [d.node, d.cli, 'serve', '--socket', socketPath], env } });
      expect(agentd.info.agentInfo?.name).toBe('agentd');
      agentd.close();
      expect(existsSync(socketPath)).toBe(true);
    } finally {
      const attempt = tryLockDataDir(resolveAgentdPaths(env).dataDir);
      if (attempt.kind === 'held' && attempt.owner) process.kill(attempt.owner.pid, 'SIGTERM');
      if (attempt.kind === 'acquired') attempt.lock.release();
      await new Promise((resolve) => setTimeout(resolve, 300));
      home.cleanup();
    }
  });
});
