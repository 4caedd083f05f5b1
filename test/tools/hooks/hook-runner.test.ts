import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HookRunner, type HookRunnerOptions } from '../../../src/tools/hooks/hook-runner.js';
import { makeTempDir, type TempDir } from '../tool-test-context.js';
import { answerNext, peerPair } from '../remote/peer-pair.js';

const bashCall = { id: 'call-1', name: 'bash', args: { command: 'rm -rf build' } };
const okResult = { content: [{ type: 'text' as const, text: 'done' }] };

describe('HookRunner', () => {
  let temp: TempDir;
  let logs: string[];
  beforeEach(() => {
    temp = makeTempDir();
    logs = [];
  });
  afterEach(() => temp.cleanup());

  const runner = (config: HookRunnerOptions['config'], extra: Partial<HookRunnerOptions> = {}): HookRunner =>
    new HookRunner({ config, cwdOf: () => temp.dir, log: (line) => logs.push(line), env: { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-secret' }, ...extra });

  it('blocks with the stderr of a command that exits 2, only for matching tools', async () => {
    const hooks = runner({ beforeToolCall: [{ command: "echo 'rm is not allowed here' >&2; exit 2", tools: ['ba*'] }] });
    expect(await hooks.before(bashCall, 's1')).toEqual({ decision: 'block', reason: 'rm is not allowed here' });
    expect(await hooks.before({ ...bashCall, name: 'read' }, 's1')).toEqual({ decision: 'allow' });
  });

  it('gives the command the call as JSON on stdin in the session cwd, and rewrites arguments from its stdout', async () => {
    const hooks = runner({ beforeToolCall: [{ command: 'cat > seen.json; echo \'{"arguments": {"command": "rm -rf build/tmp"}}\'' }] });
    expect(await hooks.before(bashCall, 's1')).toEqual({ decision: 'rewrite', args: { command: 'rm -rf build/tmp' } });
    expect(JSON.parse(readFileSync(path.join(temp.dir, 'seen.json'), 'utf8'))).toEqual({
      event: 'beforeToolCall',
      sessionId: 's1',
      toolCallId: 'call-1',
      name: 'bash',
      arguments: { command: 'rm -rf build' },
    });
  });

  it('logs and allows on other exit codes and plain output; blocks on timeout; never shows secrets to the command', async () => {
    const hooks = runner({
      beforeToolCall: [
        { command: 'echo broken >&2; exit 3' },
        { command: 'echo just text' },
        { command: 'echo "{not json"' },
      ],
    });
    expect(await hooks.before(bashCall, 's1')).toEqual({ decision: 'allow' });
    expect(logs).toEqual([
      'beforeToolCall hook "echo broken >&2; exit 3" exited with code 3: broken; the call goes on',
      expect.stringMatching(/^beforeToolCall hook "echo "\{not json"" printed invalid JSON \(.*\); ignored$/),
    ]);

    const slow = runner({ beforeToolCall: [{ command: 'sleep 5', timeoutMs: 200 }] });
    expect(await slow.before(bashCall, 's1')).toEqual({ decision: 'block', reason: 'the beforeToolCall hook "sleep 5" did not finish within 200 ms' });

    // A background child holding the pipes does not keep the call waiting until the timeout.
    const lingering = runner({ beforeToolCall: [{ command: 'sleep 30 & echo started', timeoutMs: 5_000 }] });
    expect(await lingering.before(bashCall, 's1')).toEqual({ decision: 'allow' });

    const snoop = runner({ beforeToolCall: [{ command: 'printf "%s" "$OPENAI_API_KEY" >&2; exit 2' }] });
    expect(await snoop.before(bashCall, 's1')).toEqual({ decision: 'block', reason: 'the beforeToolCall hook "printf "%s" "$OPENAI_API_KEY" >&2; exit 2" exited with code 2' });
  });

  it('lets after-commands see the result and replace it, or object to it with exit 2', async () => {
    const replace = runner({
      afterToolCall: [{ command: 'cat > after.json; echo \'{"result": {"content": [{"type": "text", "text": "[redacted]"}], "isError": false}}\'' }],
    });
    expect(await replace.after(bashCall, okResult, 's1')).toEqual({ content: [{ type: 'text', text: '[redacted]' }] });
    expect(JSON.parse(readFileSync(path.join(temp.dir, 'after.json'), 'utf8'))).toMatchObject({
      event: 'afterToolCall',
      result: { content: [{ type: 'text', text: 'done' }], isError: false },
    });
    // The tool already ran: a slow after-hook is logged and the result stands.
    const slow = runner({ afterToolCall: [{ command: 'sleep 5', timeoutMs: 200 }] });
    expect(await slow.after(bashCall, okResult, 's1')).toBe(okResult);
    expect(logs).toContain('afterToolCall hook "sleep 5" did not finish within 200 ms; the result is kept');
    const object = runner({ afterToolCall: [{ command: 'echo "output contains a secret" >&2; exit 2' }] });
    expect(await object.after(bashCall, okResult, 's1')).toEqual({
      content: [
        { type: 'text', text: 'done' },
        { type: 'text', text: 'A hook objected to this result: output contains a secret' },
      ],
    });
  });

  it('asks registered clients after the commands, passing rewritten arguments along', async () => {
    const hooks = runner({ beforeToolCall: [{ command: 'echo \'{"arguments": {"command": "ls"}}\'' }] });
    const { connection, client } = peerPair('unix#5');
    hooks.register(connection, { events: ['beforeToolCall', 'afterToolCall'], tools: ['bash'] });

    const blocked = hooks.before(bashCall, 's1');
    const asked = await answerNext(client, 'hooks/beforeToolCall', { decision: 'block', reason: 'not now' });
    expect(asked.params).toEqual({ sessionId: 's1', toolCallId: 'call-1', name: 'bash', arguments: { command: 'ls' } });
    expect(await blocked).toEqual({ decision: 'block', reason: 'not now' });

    const rewritten = hooks.before(bashCall, 's1');
    await answerNext(client, 'hooks/beforeToolCall', { decision: 'rewrite', arguments: { command: 'ls -la' } });
    expect(await rewritten).toEqual({ decision: 'rewrite', args: { command: 'ls -la' } });

    const after = hooks.after(bashCall, okResult, 's1');
    const afterAsk = await answerNext(client, 'hooks/afterToolCall', { result: { content: [{ type: 'text', text: 'checked' }] } });
    expect(afterAsk.params.result).toEqual({ content: [{ type: 'text', text: 'done' }], isError: false });
    expect(await after).toEqual({ content: [{ type: 'text', text: 'checked' }] });

    const kept = hooks.after(bashCall, okResult, 's1');
    await answerNext(client, 'hooks/afterToolCall', {});
    expect(await kept).toBe(okResult);
    // Other tools do not reach the client (only the command hook, which matches every tool).
    expect(await hooks.before({ ...bashCall, name: 'read' }, 's1')).toEqual({ decision: 'rewrite', args: { command: 'ls' } });
    expect(client.received.filter((m) => m.method === 'hooks/beforeToolCall')).toHaveLength(2);

    // Registering again replaces the earlier registration: now only after-hooks for every tool.
    hooks.register(connection, { events: ['afterToolCall'] });
    expect(await hooks.before(bashCall, 's1')).toEqual({ decision: 'rewrite', args: { command: 'ls' } });
    expect(client.received.filter((m) => m.method === 'hooks/beforeToolCall')).toHaveLength(2);
    const readAfter = hooks.after({ ...bashCall, name: 'read' }, okResult, 's1');
    await answerNext(client, 'hooks/afterToolCall', {});
    expect(await readAfter).toBe(okResult);
    expect(hooks.clientCount).toBe(1);
  });

  it('blocks when a hook client does not answer in time, honours its session scope, and forgets it when it disconnects', async () => {
    const hooks = runner(undefined, { clientTimeoutMs: 100 });
    const { connection, client, close } = peerPair('unix#6');
    hooks.register(connection, { events: ['beforeToolCall'], sessionId: 's1' });
    expect(await hooks.before(bashCall, 's1')).toEqual({ decision: 'block', reason: 'the hook client unix#6 did not answer within 100 ms' });
    await client.waitFor((m) => m.method === '$/cancel_request');
    expect(await hooks.before(bashCall, 's2')).toEqual({ decision: 'allow' });

    const pending = hooks.before(bashCall, 's1');
    await client.waitFor((m) => m.method === 'hooks/beforeToolCall' && client.received.filter((r) => r.method === 'hooks/beforeToolCall').length === 2);
    close();
    expect(await pending).toEqual({ decision: 'allow' });
    expect(hooks.clientCount).toBe(0);
    expect(logs.some((l) => /^hook client unix#6: hooks\/beforeToolCall failed \(connection unix#6 closed\); the call goes on$/.test(l))).toBe(true);
  });
});
