import type { ContentBlock, SessionUpdate, StopReason } from '../../../protocol/index.js';
import type { AgentdClient } from './agentd-client.js';
import { UpdateStream } from './update-stream.js';

/** What a prompt, steer or follow-up sends: plain text, or ACP content blocks. */
export type PromptInput = string | ContentBlock[];

/** How a turn ended, and the answer it streamed. */
export interface TurnResult {
  stopReason: StopReason;
  /** The agent's message text streamed during the turn (agent_message_chunk): one message's chunks joined, messages a blank line apart. */
  text: string;
}

/**
 * One prompt in flight: await it for the TurnResult, or iterate it for the session's
 * updates until the turn ends. Both work on the same turn; updates that arrive before
 * iteration starts are kept.
 */
export interface Turn extends PromiseLike<TurnResult>, AsyncIterable<SessionUpdate> {
  readonly result: Promise<TurnResult>;
}

/** A session of the daemon, as created, loaded or joined by this client. */
export class AgentdSession {
  private readonly listeners = new Set<(update: SessionUpdate) => void>();

  constructor(
    private readonly client: AgentdClient,
    readonly id: string,
  ) {}

  /**
   * Sends a prompt and returns at once; the turn streams in the background. The daemon
   * refuses a prompt while a turn runs (SessionBusy): use steer or followUp for that.
   */
  prompt(input: PromptInput): Turn {
    const stream = new UpdateStream<SessionUpdate>();
    let text = '';
    let messageId: string | null | undefined;
    const stop = this.onUpdate((update) => {
      if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
        // A turn may hold several messages (after tool calls, a steer): keep them apart.
        if (text !== '' && update.messageId !== messageId) text += '\n\n';
        messageId = update.messageId;
        text += update.content.text;
      }
      stream.push(update);
    });
    const result = this.client.prompt({ sessionId: this.id, prompt: blocksOf(input) }).then(
      (answer) => ({ stopReason: answer.stopReason, text }),
    );
    // The iterator ends when the turn does, whichever way.
    const ended = result.finally(() => {
      stop();
      stream.end();
    });
    ended.catch(() => undefined);
    return {
      result,
      then: (onFulfilled, onRejected) => result.then(onFulfilled, onRejected),
      [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator](),
    };
  }

  /** Adds a message to the running turn, delivered at its next safe point; starts a turn when none runs. Resolves with the queue length. */
  async steer(input: PromptInput, options: { interrupt?: boolean } = {}): Promise<number> {
    return (await this.client.steer({ sessionId: this.id, prompt: blocksOf(input), ...(options.interrupt ? { interrupt: true } : {}) })).queued;
  }

  /** Adds a message for when the running turn would stop; starts a turn when none runs. Resolves with the queue length. */
  async followUp(input: PromptInput): Promise<number> {
    return (await this.client.followUp({ sessionId: this.id, prompt: blocksOf(input) })).queued;
  }

  /** Stops the running turn now; resolves once it has stopped (its prompt answers `cancelled`). */
  async abort(options: { keepQueues?: boolean } = {}): Promise<void> {
    await this.client.abort({ sessionId: this.id, ...(options.keepQueues ? { keepQueues: true } : {}) });
  }

  /** Every update of this session from now on (also other clients' turns, when joined); returns an unsubscribe. */
  onUpdate(listener: (update: SessionUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called by Agentd with this session's updates. */
  deliver(update: SessionUpdate): void {
    for (const listener of [...this.listeners]) listener(update);
  }
}

function blocksOf(input: PromptInput): ContentBlock[] {
  return typeof input === 'string' ? [{ type: 'text', text: input }] : input;
}
