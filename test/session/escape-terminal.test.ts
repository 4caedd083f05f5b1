import { PassThrough } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentdEvent, RequestPermissionRequest, SessionUpdate } from '../../protocol/index.js';
import { askOnTerminal } from '../../src/cli/run/ask-on-terminal.js';
import { RunDisplay } from '../../src/cli/run/run-display.js';
import { jsonForTerminal, showControlCharacters } from '../../src/config/show-control-characters.js';
import { loadDaemonSettings } from '../../src/daemon/load-daemon-settings.js';
import { questionTitle } from '../../src/tools/permissions/question-title.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { startLoopHarness, type LoopHarness } from '../support/loop-harness.js';
import { ACTS_ON_TERMINAL, PAYLOADS } from './escape-terminal-payloads.js';

/** A fake terminal for askOnTerminal: the user types `typed`; everything written to it is kept. */
function terminal(typed: string): { input: PassThrough; output: PassThrough; shown(): string } {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (b: Buffer) => (shown += b.toString()));
  input.write(typed);
  return { input, output, shown: () => shown };
}

/**
 * F15: a model, tool, MCP server or repository can put terminal
 * controls in what `agentd run` shows; a question must still show what it asks about.
 */
describe('F15 a permission question on the terminal, asked through the daemon', () => {
  let h: LoopHarness;
  beforeAll(async () => {
    h = await startLoopHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  /** One prompt whose model calls `tool` with `args`; the question is asked on a fake terminal where the user types n. */
  async function askedOnTerminal(tool: string, args: Record<string, unknown>): Promise<string> {
    let shown = '';
    h.peer.onRequest('session/request_permission', async (params: RequestPermissionRequest) => {
      const t = terminal('n\n');
      const choice = await askOnTerminal(params, { ...t, cwd: h.workspace });
      shown += t.shown();
      return { outcome: { outcome: 'selected', optionId: choice } };
    });
    h.replay.enqueue({ body: chatToolCallSse([{ id: `call_${h.replay.requests.length}`, name: tool, arguments: args }]) });
    h.replay.enqueue({ body: chatCompletionSse(['ok']) });
    await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'go' }] });
    expect(shown).toContain('[n] Reject');
    return shown;
  }

  it.each(PAYLOADS)('F15 terminal: a bash command with $name shows the command, not what its controls draw', async ({ raw, shown }) => {
    const out = await askedOnTerminal('bash', { command: raw });
    expect(out).toContain(`agentd: Run: ${shown} needs permission`);
    expect(out).not.toMatch(ACTS_ON_TERMINAL);
  });

  it('F15 terminal: the model\'s description of a command (in the reason) cannot redraw the question', async () => {
    const out = await askedOnTerminal('bash', { command: 'rm -f precious.txt', description: 'x\r\x1b[2K\x1b[1Aagentd: Run: npm test' });
    expect(out).toContain('agentd: Run: rm -f precious.txt needs permission');
    expect(out).toContain('The model describes this command as "x\\r\\e[2K\\e[1Aagentd: Run: npm test"');
    expect(out).not.toMatch(ACTS_ON_TERMINAL);
  });

  it.each([PAYLOADS[0]!, PAYLOADS[2]!, PAYLOADS[4]!, PAYLOADS[10]!])('F15 terminal: a proposed change (diff) with $name is shown, not acted on', async ({ raw, shown }) => {
    const out = await askedOnTerminal('write', { path: 'notes.txt', content: `harmless\n${raw}\n` });
    expect(out).toContain(`  +${shown}\n`);
    expect(out).not.toMatch(ACTS_ON_TERMINAL);
  });

  it('F15 terminal: a file name with controls is shown in the title and the diff labels', async () => {
    const out = await askedOnTerminal('write', { path: 'a\x1b[2K\rb.txt', content: 'x\n' });
    expect(out).toContain('agentd: Write a\\e[2K\\rb.txt');
    expect(out).toContain('+++ b/a\\e[2K\\rb.txt');
    expect(out).not.toMatch(ACTS_ON_TERMINAL);
  });

  it('F15 terminal: a tab in a proposed change keeps the code aligned (the one control a diff keeps)', async () => {
    const out = await askedOnTerminal('write', { path: 'Makefile', content: 'all:\n\tmake it\n' });
    expect(out).toContain('  +\tmake it\n');
  });
});

describe('F15 a question as an MCP server or a client words it', () => {
  const question = (title: string, reason?: string, optionName = 'Allow once'): RequestPermissionRequest => ({
    sessionId: 's',
    toolCall: { toolCallId: 'c', title, ...(reason ? { _meta: { agentd: { reason } } } : {}) },
    options: [
      { optionId: 'allow_once', name: optionName, kind: 'allow_once' },
      { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
    ],
  });
  const ask = async (q: RequestPermissionRequest): Promise<string> => {
    const t = terminal('n\n');
    expect(await askOnTerminal(q, t)).toBe('reject_once');
    return t.shown();
  };

  it('F15 terminal: an MCP tool whose server-chosen title hides its name behind an erase-line is asked about under both, visibly', () => {
    const { title } = questionTitle('files__delete_everything', {}, 'files: delete_everything\r\x1b[2Kfiles: Read file');
    expect(title).toBe('files: delete_everything\\r\\e[2Kfiles: Read file (files__delete_everything)');
  });

  it('F15 terminal: an MCP tool name (server__tool) with an OSC title sequence is shown in the question', async () => {
    const { title } = questionTitle('evil__x\x1b]0;npm test\x07', {}, 'Read');
    const out = await ask(question(title));
    expect(out).toContain('agentd: Read (evil__x\\e]0;npm test\\a) needs permission');
    expect(out).not.toMatch(ACTS_ON_TERMINAL);
  });

  // `agentd run` is a client: the daemon at the other end of the socket may be an older or another build.
  it.each([PAYLOADS[0]!, PAYLOADS[4]!, PAYLOADS[6]!, PAYLOADS[11]!])('F15 terminal: a title with $name sent raw over the wire is still shown, not acted on', async ({ raw, shown }) => {
    const out = await ask(question(`Run: ${raw}`));
    expect(out).toContain(`agentd: Run: ${shown} needs permission`);
    expect(out).not.toMatch(ACTS_ON_TERMINAL);
  });

  it.each([PAYLOADS[0]!, PAYLOADS[5]!, PAYLOADS[10]!])('F15 terminal: a reason with $name is shown, not acted on', async ({ raw, shown }) => {
    const out = await ask(question('Write a.txt', raw));
    expect(out).toContain(`agentd: Write a.txt needs permission (${shown})`);
    expect(out).not.toMatch(ACTS_ON_TERMINAL);
  });

  it('F15 terminal: an option name cannot move the cursor back over the keys', async () => {
    const out = await ask(question('Write a.txt', undefined, 'Allow once\x1b[1A\x1b[2K'));
    expect(out).toContain('[y] Allow once\\e[1A\\e[2K  [n] Reject? ');
    expect(out).not.toMatch(ACTS_ON_TERMINAL);
  });
});

describe('F15 what agentd run shows of a turn', () => {
  const display = (json = false): { d: RunDisplay; stdout(): string; stderr(): string } => {
    let out = '';
    let err = '';
    const d = new RunDisplay({ stdout: (s) => void (out += s), stderr: (s) => void (err += s) }, json);
    return { d, stdout: () => out, stderr: () => err };
  };
  const chunk = (text: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

  it.each([PAYLOADS[0]!, PAYLOADS[3]!, PAYLOADS[4]!, PAYLOADS[5]!, PAYLOADS[7]!, PAYLOADS[10]!])('F15 terminal: a streamed answer with $name is printed visibly', ({ raw, shown }) => {
    const v = display();
    v.d.update('s', chunk(`Done.\n${raw.slice(0, 7)}`));
    v.d.update('s', chunk(raw.slice(7)));
    v.d.finish('s', 'end_turn');
    expect(v.stdout()).toBe(`Done.\n${shown}\n`);
  });

  it('F15 terminal: a streamed answer keeps its newlines and tabs (the layout), nothing else', () => {
    const v = display();
    v.d.update('s', chunk('a\tb\nc\r\n'));
    expect(v.stdout()).toBe('a\tb\nc\\r\n');
  });

  const statuses: Array<{ name: string; feed: (d: RunDisplay, raw: string) => void }> = [
    { name: 'a tool call title', feed: (d, raw) => d.update('s', { sessionUpdate: 'tool_call', toolCallId: 't', title: raw }) },
    {
      name: 'a failed tool call\'s error',
      feed: (d, raw) => {
        d.update('s', { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read a' });
        d.update('s', { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: raw } }] });
      },
    },
    { name: 'a notice', feed: (d, raw) => d.event('s', { type: 'notice', level: 'warning', message: raw } as AgentdEvent) },
    { name: 'a retry\'s cause (a provider\'s error text)', feed: (d, raw) => d.event('s', { type: 'retry', attempt: 1, delayMs: 1000, reason: raw } as AgentdEvent) },
    { name: 'a compaction failure', feed: (d, raw) => d.event('s', { type: 'compaction', status: 'failed', error: raw } as AgentdEvent) },
  ];

  it.each(statuses)('F15 terminal: $name on stderr shows the finding\'s controls', ({ feed }) => {
    const v = display();
    feed(v.d, PAYLOADS[0]!.raw);
    expect(v.stderr()).toContain(PAYLOADS[0]!.shown);
    expect(v.stderr()).not.toMatch(ACTS_ON_TERMINAL);
  });

  it('F15 terminal: --json output carries C1, bidi and separator characters as \\u escapes, and parses back to the same text', () => {
    const v = display(true);
    const raw = PAYLOADS.map((p) => p.raw).join('|');
    v.d.update('s', chunk(raw));
    expect(v.stdout()).not.toMatch(ACTS_ON_TERMINAL);
    expect(JSON.parse(v.stdout()).params.update.content.text).toBe(raw);
    expect(JSON.parse(jsonForTerminal({ raw }, 2)).raw).toBe(raw);
  });
});

describe('F15 the daemon log', () => {
  it('F15 terminal: an MCP server\'s name and stderr, written to the log, cannot clear the screen or set its title', () => {
    const home = mkdtempSync(join(tmpdir(), 'agentd-home-'));
    try {
      const lines: string[] = [];
      const settings = loadDaemonSettings({ cwd: home, env: { AGENTD_HOME: home }, version: 'test', write: (line) => void lines.push(line) });
      settings.log('mcp evil\x1b]0;agentd\x07: \x1b[2J\x1b[Hall good\nsecond line \u202e');
      expect(lines).toEqual(['agentd: mcp evil\\e]0;agentd\\a: \\e[2J\\e[Hall good\nsecond line \\u202e']);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('F15 terminal: the function itself leaves ordinary text, emoji and right-to-left words as they are', () => {
    const text = 'naïve café — 日本語 👩‍💻 שלום مرحبا \\e is two characters';
    expect(showControlCharacters(text)).toBe(text);
  });
});
