import { createInterface } from 'node:readline';
import { AgentdPermissionToolCallMetaSchema, readAgentdMeta, type RequestPermissionRequest } from '../../../protocol/index.js';
import { showControlCharacters } from '../../config/show-control-characters.js';
import { unifiedDiff } from '../../tools/files/unified-diff.js';

/** The keys offered, by ACP option kind. */
const KEYS: Record<string, string> = { allow_once: 'y', allow_always: 'a', reject_once: 'n', reject_always: 'N' };

/** A proposed change longer than this is cut on the terminal; the question stays readable. */
const MAX_DIFF_LINES = 40;

/** The unified diff of each change the question carries (ACP `diff` content), cut at MAX_DIFF_LINES. */
function proposedChanges(request: RequestPermissionRequest, cwd: string): string {
  const diffs = (request.toolCall.content ?? []).flatMap((c) => (c.type === 'diff' ? [c] : []));
  return diffs
    .map((d) => {
      const lines = unifiedDiff(d.path, cwd, d.oldText ?? null, d.newText).trimEnd().split('\n');
      const cut = lines.length > MAX_DIFF_LINES ? [...lines.slice(0, MAX_DIFF_LINES), `  … ${lines.length - MAX_DIFF_LINES} more diff lines`] : lines;
      // A tab keeps code aligned and cannot overwrite anything; every other control is shown.
      return cut.map((line) => `  ${showControlCharacters(line, { keep: '\t' })}\n`).join('');
    })
    .join('');
}

/**
 * Asks a permission question on the terminal `agentd run` was started from: the call's
 * title, why it asks, the proposed change as a diff when the question carries one, and
 * one key per option (y once, a always, n reject, N always reject). Anything else asks
 * again; the end of input, or `signal` (Ctrl-C, the daemon withdrawing the question),
 * answers `cancelled` at once and closes the question. The title, reason, diff and option names
 * come from the model, tools and MCP servers: each shows its control characters as
 * escapes, so none can redraw the question (`\r\e[2K` followed by a harmless title).
 */
export async function askOnTerminal(
  request: RequestPermissionRequest,
  io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; cwd?: string; signal?: AbortSignal },
): Promise<string> {
  if (io.signal?.aborted) return 'cancelled';
  // Read again: the client does not check what the daemon sends, and a reason that is no string is left out.
  const reason = readAgentdMeta(AgentdPermissionToolCallMetaSchema.pick({ reason: true }), request.toolCall)?.reason;
  const choices = request.options.map((option) => ({ key: KEYS[option.kind] ?? option.optionId, option }));
  const menu = choices.map(({ key, option }) => `[${key}] ${showControlCharacters(option.name)}`).join('  ');
  const title = showControlCharacters(request.toolCall.title ?? 'a tool call');
  const rl = createInterface({ input: io.input, output: io.output, terminal: false });
  // A question nobody may answer any more must not wait for a line.
  let onAbort = (): void => undefined;
  const aborted = new Promise<{ done: true; value: undefined }>((resolve) => {
    onAbort = () => {
      io.output.write('\n');
      resolve({ done: true, value: undefined });
    };
    io.signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    io.output.write(`\nagentd: ${title} needs permission${reason !== undefined ? ` (${showControlCharacters(reason)})` : ''}\n`);
    io.output.write(proposedChanges(request, io.cwd ?? process.cwd()));
    // Lines are buffered by the iterator: several typed (or pasted) at once are all read.
    const lines = rl[Symbol.asyncIterator]();
    for (;;) {
      io.output.write(`  ${menu}? `);
      const next = await Promise.race([lines.next(), aborted]);
      if (next.done) return 'cancelled';
      const chosen = choices.find(({ key }) => key === next.value.trim());
      if (chosen) return chosen.option.optionId;
    }
  } finally {
    io.signal?.removeEventListener('abort', onAbort);
    rl.close();
  }
}
