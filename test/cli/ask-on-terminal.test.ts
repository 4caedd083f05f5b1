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
});
