import type { AgentdEvent, SessionUpdate, StopReason } from '../../../protocol/index.js';
import { jsonForTerminal, showControlCharacters } from '../../config/show-control-characters.js';

/** Where `agentd run` writes: the answer to one stream, what happens around it to another. */
export interface RunOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** stderr is a terminal: a spinner shows while nothing streams. */
  spinner?: boolean;
}

const SPINNER_FRAMES = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

/**
 * What `agentd run` shows of a turn. Text mode: the answer alone on stdout; on stderr,
 * each tool call with its title when it starts and when it ends (a refusal with how to
 * allow it), retries with their wait and cause, compaction, and the turn's cost at the
 * end. JSON mode: the public vocabulary on stdout — every ACP `session/update` and
 * `agentd/event` notification as a JSON-RPC line — and a final result line.
 */
export class RunDisplay {
  private endsWithNewline = true;
  private readonly titles = new Map<string, string>();
  private turnUsd: number | undefined;
  private spinning: NodeJS.Timeout | undefined;
  private frame = 0;
  private finished = false;

  constructor(
    private readonly out: RunOutput,
    private readonly json: boolean,
  ) {}

  /**
   * Waiting for the model or a tool: on a terminal, a spinner on stderr with the seconds
   * waited so far, until something is printed. Updates that print nothing (a title, the
   * mode, usage) leave it turning.
   */
  waiting(): void {
    if (this.json || !this.out.spinner || this.spinning || this.finished) return;
    const since = Date.now();
    this.spinning = setInterval(() => {
      this.frame = (this.frame + 1) % SPINNER_FRAMES.length;
      this.out.stderr(`\r${SPINNER_FRAMES[this.frame]} working… ${Math.floor((Date.now() - since) / 1000)}s`);
    }, 100);
    this.spinning.unref();
  }

  /** Something else uses the terminal now (a permission question). */
  pause(): void {
    this.stopSpinner();
  }

  private stopSpinner(): void {
    if (!this.spinning) return;
    clearInterval(this.spinning);
    this.spinning = undefined;
    this.out.stderr('\r\x1b[K');
  }

  update(sessionId: string, update: SessionUpdate): void {
    if (this.json) return this.out.stdout(`${jsonForTerminal({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } })}\n`);
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (update.content.type !== 'text') return;
        this.stopSpinner();
        return this.answer(update.content.text);
      case 'tool_call':
        this.titles.set(update.toolCallId, update.title);
        return this.status(`→ ${update.title}`);
      case 'tool_call_update': {
        if (update.status !== 'completed' && update.status !== 'failed') return;
        const title = this.titles.get(update.toolCallId) ?? update.toolCallId;
        if (update.status === 'completed') return this.status(`✓ ${title}`);
        const why = failureText(update.rawOutput, update.content);
        return this.status(`✗ ${title}${why ? `: ${why}` : ''}${/permission/i.test(why ?? '') ? hint : ''}`);
      }
      default:
        return;
    }
  }

  event(sessionId: string, event: AgentdEvent): void {
    if (this.json) return this.out.stdout(`${jsonForTerminal({ jsonrpc: '2.0', method: 'agentd/event', params: { sessionId, event } })}\n`);
    switch (event.type) {
      case 'retry':
        return this.status(`retrying in ${Math.max(1, Math.round(event.delayMs / 1000))} s (attempt ${event.attempt}): ${event.reason}`);
      case 'fallback':
        return this.status(`${event.from} failed (${event.reason}); answering with ${event.to}`);
      case 'compaction':
        if (event.status === 'started') return this.status('compacting the conversation…');
        if (event.status === 'completed') return this.status(`compacted${event.tokensBefore && event.tokensAfter ? ` (${event.tokensBefore} → ${event.tokensAfter} tokens)` : ''}`);
        return this.status(`compaction failed${event.error ? `: ${event.error}` : ''}`);
      case 'notice':
        // A turn's failure also fails the prompt, and `agentd run` prints that once.
        if (event.level === 'error') return;
        return this.status(`${event.level}: ${event.message}`);
      case 'cost':
        this.turnUsd = event.turnUsd;
        return;
      default:
        return;
    }
  }

  /** The turn ended: the answer's last newline, the cost, and (JSON) the result line. */
  finish(sessionId: string, stopReason: StopReason | 'failed', detail?: string): void {
    this.stopSpinner();
    this.finished = true;
    if (this.json) {
      this.out.stdout(`${jsonForTerminal({ result: { sessionId, stopReason, ...(detail ? { message: detail } : {}) } })}\n`);
      return;
    }
    if (!this.endsWithNewline) this.out.stdout('\n');
    this.endsWithNewline = true;
    if (this.turnUsd !== undefined) this.status(`${describeStop(stopReason)} · $${this.turnUsd.toFixed(4)}`);
  }

  /** The model's words: newlines and tabs lay them out; every other control is shown as an escape. */
  private answer(text: string): void {
    this.out.stdout(showControlCharacters(text, { keep: '\n\t' }));
    this.endsWithNewline = text.endsWith('\n');
  }

  /**
   * A status line on stderr. On a terminal both streams share a screen: a line break
   * first when the answer so far ends mid-line, so the status stands on its own line
   * (stdout itself gets no added line break). Titles, errors and notices come from
   * the model, tools, MCP servers and providers: one line each, every control shown.
   */
  private status(line: string): void {
    this.stopSpinner();
    this.out.stderr(`${this.endsWithNewline ? '' : '\n'}agentd: ${showControlCharacters(line)}\n`);
    // A tool runs, or the model is asked again: nothing streams for a while.
    this.waiting();
  }
}

const hint = ' (allow it with --permission-mode acceptEdits or bypass, or a permissions rule in config.json)';

function failureText(rawOutput: unknown, content: unknown): string | undefined {
  const blocks = Array.isArray(content) ? (content as Array<{ type?: string; content?: { type?: string; text?: string } }>) : [];
  const text = blocks.map((b) => (b.type === 'content' && b.content?.type === 'text' ? b.content.text : '')).join(' ').trim();
  if (text) return text.split('\n')[0]!.slice(0, 200);
  return typeof rawOutput === 'string' ? rawOutput.slice(0, 200) : undefined;
}

function describeStop(stopReason: StopReason | 'failed'): string {
  switch (stopReason) {
    case 'end_turn':
      return 'done';
    case 'cancelled':
      return 'cancelled';
    case 'max_turn_requests':
      return 'stopped: out of turns';
    case 'max_tokens':
      return 'stopped: output limit';
    case 'refusal':
      return 'the model refused';
    default:
      return String(stopReason);
  }
}
