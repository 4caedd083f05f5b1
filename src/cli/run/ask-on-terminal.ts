import { createInterface } from 'node:readline';
import type { RequestPermissionRequest } from '../../../protocol/index.js';

/** The keys offered, by ACP option kind. */
const KEYS: Record<string, string> = { allow_once: 'y', allow_always: 'a', reject_once: 'n', reject_always: 'N' };

/**
 * Asks a permission question on the terminal `agentd run` was started from: the call's
 * title, why it asks, and one key per option (y once, a always, n reject, N always
 * reject). Anything else asks again; the end of input answers `cancelled`.
 */
export async function askOnTerminal(request: RequestPermissionRequest, io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream }): Promise<string> {
  const reason = (request.toolCall._meta as { agentd?: { reason?: unknown } } | null | undefined)?.agentd?.reason;
  const choices = request.options.map((option) => ({ key: KEYS[option.kind] ?? option.optionId, option }));
  const menu = choices.map(({ key, option }) => `[${key}] ${option.name}`).join('  ');
  const rl = createInterface({ input: io.input, output: io.output, terminal: false });
  try {
    io.output.write(`\nagentd: ${request.toolCall.title ?? 'a tool call'} needs permission${typeof reason === 'string' ? ` (${reason})` : ''}\n`);
    // Lines are buffered by the iterator: several typed (or pasted) at once are all read.
    const lines = rl[Symbol.asyncIterator]();
    for (;;) {
      io.output.write(`  ${menu}? `);
      const next = await lines.next();
      if (next.done) return 'cancelled';
      const chosen = choices.find(({ key }) => key === next.value.trim());
      if (chosen) return chosen.option.optionId;
    }
  } finally {
    rl.close();
  }
}
