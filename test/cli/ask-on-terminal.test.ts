import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askOnTerminal } from '../../src/cli/run/ask-on-terminal.js';

const question = {
  sessionId: 's',
  toolCall: { toolCallId: 'c', title: 'Write a.txt', _meta: { agentd: { reason: 'a.txt is outside the workspace' } } },
  options: [
    { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' as const },
    { optionId: 'allow_always', name: 'Always allow', kind: 'allow_always' as const },
    { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' as const },
  ],
};

function terminal(): { input: PassThrough; output: PassThrough; shown(): string } {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (b: Buffer) => (shown += b.toString()));
  return { input, output, shown: () => shown };
}

describe('askOnTerminal', () => {
  it('shows the call, why it asks and a key per option; asks again on another key', async () => {
    const t = terminal();
    const answer = askOnTerminal(question, t);
    t.input.write('maybe\n');
    t.input.write('a\n');
    expect(await answer).toBe('allow_always');
    expect(t.shown()).toContain('agentd: Write a.txt needs permission (a.txt is outside the workspace)');
    expect(t.shown().match(/\[y\] Allow once {2}\[a\] Always allow {2}\[n\] Reject\? /g)).toHaveLength(2);
  });

  it('answers cancelled when the input ends', async () => {
    const t = terminal();
    const answer = askOnTerminal(question, t);
    t.input.end();
    expect(await answer).toBe('cancelled');
  });

  it('answers cancelled at once when its signal aborts (Ctrl-C, the daemon withdrawing it), with no line typed', async () => {
    const t = terminal();
    const controller = new AbortController();
    const answer = askOnTerminal(question, { ...t, signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect(await answer).toBe('cancelled');
    t.input.write('y\n');
    expect(t.shown().endsWith('? \n')).toBe(true);
  });
});

describe('askOnTerminal with a proposed change', () => {
  const withDiff = (oldText: string | null, newText: string) => ({
    ...question,
    toolCall: { ...question.toolCall, content: [{ type: 'diff' as const, path: '/ws/src/a.txt', oldText, newText }] },
  });

  it('shows the diff, labelled relative to the session directory, before the keys', async () => {
    const t = terminal();
    const answer = askOnTerminal(withDiff('one\ntwo\n', 'one\nTWO\n'), { ...t, cwd: '/ws' });
    t.input.write('y\n');
    expect(await answer).toBe('allow_once');
    const shown = t.shown();
    expect(shown).toContain('  --- a/src/a.txt\n  +++ b/src/a.txt\n  @@ -1,2 +1,2 @@\n   one\n  -two\n  +TWO\n');
    expect(shown.indexOf('+TWO')).toBeLessThan(shown.indexOf('[y] Allow once'));
  });

  it('a new file diffs against /dev/null; a long change is cut with how many lines were left out', async () => {
    const t = terminal();
    const content = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const answer = askOnTerminal(withDiff(null, content), { ...t, cwd: '/ws' });
    t.input.end();
    await answer;
    const shown = t.shown();
    expect(shown).toContain('  --- /dev/null\n  +++ b/src/a.txt\n');
    expect(shown).toContain('+line 36\n');
    expect(shown).not.toContain('+line 37\n');
    expect(shown).toContain('  … 63 more diff lines\n');
  });
});
