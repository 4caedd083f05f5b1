import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { startLoopHarness, toolResults, type LoopHarness } from '../support/loop-harness.js';
import type { WireMessage } from '../support/rpc-peer.js';

/*
 * F13 end to end, in process: the daemon, its sessions and the test share one libuv
 * threadpool, so a blocking open anywhere in the daemon shows here as a hang.
 */

/** One entry of this process's environment: what a link to /proc/self/environ would leak. */
const ENVIRON_SAMPLE = fs.readFileSync('/proc/self/environ', 'latin1').split('\0').find((entry) => entry.startsWith('PATH='))!;

describe('F13 repository files and special files, end to end', () => {
  let h: LoopHarness;
  let fifos: string[] = [];
  const mkfifo = (file: string): string => {
    execFileSync('mkfifo', [file]);
    fifos.push(file);
    return file;
  };
  afterEach(async () => {
    // Should a guard fail, release every reader stuck in open() so the process can end.
    for (const fifo of fifos) {
      try {
        fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
      } catch {
        // Nobody waiting.
      }
    }
    fifos = [];
    await h.close();
  });

  it('F13 finding 7: six sessions write to FIFOs at once; every question is asked, every write refused, and file I/O goes on', async () => {
    h = await startLoopHarness();
    const sessions = [h.sessionId];
    for (let i = 1; i < 6; i++) sessions.push((await h.peer.call('session/new', { cwd: h.workspace, mcpServers: [] })).sessionId as string);
    for (let i = 0; i < 6; i++) {
      mkfifo(join(h.workspace, `pipe-${i}`));
      h.replay.enqueue({ body: chatToolCallSse([{ id: `call_${i}`, name: 'write', arguments: { path: `pipe-${i}`, content: 'x' } }]) });
    }
    for (let i = 0; i < 6; i++) h.replay.enqueue({ body: chatCompletionSse(['done']) });

    // No answer until all six questions are in: each question waits on its preview.
    const asked: string[] = [];
    let allAsked!: () => void;
    const all = new Promise<void>((resolve) => (allAsked = resolve));
    h.peer.onRequest('session/request_permission', async (params: { toolCall: { title: string }; options: Array<{ kind: string; optionId: string }> }) => {
      asked.push(params.toolCall.title);
      if (asked.length === 6) allAsked();
      await all;
      return { outcome: { outcome: 'selected', optionId: params.options.find((o) => o.kind === 'allow_once')!.optionId } };
    });
    const prompts = sessions.map((sessionId) => h.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write' }] }, 10_000));
    await Promise.all(prompts);
    expect(asked.sort()).toEqual(Array.from({ length: 6 }, (_, i) => `Write pipe-${i}`));
    const results = h.replay.requests.slice(6).map((r) => Object.values(toolResults(r.body as never)).join(''));
    expect(results).toHaveLength(6);
    for (const result of results) expect(result).toMatch(/pipe-\d is a FIFO \(named pipe\), not a regular file/);
    fs.writeFileSync(join(h.workspace, 'plain.txt'), 'served\n');
    expect(await readFile(join(h.workspace, 'plain.txt'), 'utf8')).toBe('served\n');
  });

  it.each([
    ['/proc/self/environ', () => '/proc/self/environ', ENVIRON_SAMPLE],
    ['a file outside the workspace', () => '/etc/hostname', fs.readFileSync('/etc/hostname', 'utf8').trim()],
  ])('F13 AGENTS.md linking to %s never reaches a model request; the log names the file', async (_name, target, leaked) => {
    h = await startLoopHarness();
    fs.symlinkSync(target(), join(h.workspace, 'AGENTS.md'));
    h.replay.enqueue({ body: chatCompletionSse(['hi']) });
    await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'hello' }] });
    expect(JSON.stringify(h.requestBody(0))).not.toContain(leaked);
    expect(h.daemon.stderr()).toContain(`${join(h.workspace, 'AGENTS.md')}: leads outside the repository`);
  });

  it.each([
    ['a FIFO', (file: string) => mkfifo(file), 'is a FIFO (named pipe), not a regular file'],
    ['a link to /dev/zero', (file: string) => fs.symlinkSync('/dev/zero', file), 'leads outside the repository'],
  ])('F13 a session in a project whose config.json is %s is refused at once, naming the file', async (_name, plant, problem) => {
    h = await startLoopHarness();
    const project = join(h.workspace, 'project');
    fs.mkdirSync(join(project, '.agentd'), { recursive: true });
    plant(join(project, '.agentd', 'config.json'));
    const response = await h.peer.request('session/new', { cwd: project, mcpServers: [] }, 5000);
    expect(response.error?.message).toContain(`${join(project, '.agentd', 'config.json')}: ${problem}`);
  });

  it.each([
    ['a FIFO', (file: string) => mkfifo(file), 'is a FIFO (named pipe), not a regular file'],
    ['a link to /dev/zero', (file: string) => fs.symlinkSync('/dev/zero', file), 'leads outside the repository'],
    ['a link to /dev/urandom', (file: string) => fs.symlinkSync('/dev/urandom', file), 'leads outside the repository'],
  ])('F13 hot reload: a config.json that becomes %s keeps the last good settings, with the reason', async (_name, plant, problem) => {
    h = await startLoopHarness();
    const file = join(h.workspace, '.agentd', 'config.json');
    // The workspace is watched (the harness's session) before the good file is written, and
    // the watch has reported that file before it is swapped: a swap made while the watch of
    // the new .agentd/ folder is still being set up would go unseen.
    const reloader = (await h.daemon.context()).reloader;
    await reloader.settled();
    const seen = h.peer.waitFor(
      (m: WireMessage) => m.method === 'agentd/daemonEvent' && (m.params as { event: { type: string; file?: string } }).event.type === 'config_reloaded' && (m.params as { event: { file?: string } }).event.file === file,
      10_000,
      'config_reloaded of the good config.json',
    );
    fs.mkdirSync(join(h.workspace, '.agentd'));
    fs.writeFileSync(file, JSON.stringify({ model: 'local/good-model' }));
    const sessionId = (await h.peer.call('session/new', { cwd: h.workspace, mcpServers: [] })).sessionId as string;
    await reloader.settled();
    await seen;
    const from = h.peer.received.length;
    const rejected = h.peer.waitFor(
      (m: WireMessage) => m.method === 'agentd/daemonEvent' && h.peer.received.indexOf(m) >= from && (m.params as { event: { type: string } }).event.type === 'config_rejected',
      10_000,
      'config_rejected',
    );
    fs.rmSync(file);
    plant(file);
    expect(((await rejected).params as { event: { file: string; problem: string } }).event).toMatchObject({ file, problem: expect.stringContaining(problem) });
    h.replay.enqueue({ body: chatCompletionSse(['still here']) });
    await h.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] }, 5000);
    expect((h.replay.requests.at(-1)!.body as { model: string }).model).toBe('good-model');
  });
});
