import type { ContentBlock } from '../../protocol/index.js';
import type { Conversation } from '../loop/conversation.js';
import type { LoopResult, TurnStopReason } from '../loop/loop-event.js';
import { repairTranscript } from '../loop/repair-transcript.js';
import type { UserMessage } from '../providers/message.js';
import type { Store } from '../store/store.js';
import { historyFromRecords } from './compaction-marker.js';
import type { PromptQueues } from './prompt-queues.js';
import type { RunOverrides } from '../project/run-overrides.js';
import type { PermissionMode } from '../tools/permissions/permission-modes.js';
import { RunningTurn } from './running-turn.js';
import type { ReleaseSlot, TurnSlots } from './turn-slots.js';
import { TurnFailedError } from './session-errors.js';
import { SessionStateMachine, type SessionState } from './session-state.js';
import type { SessionWriter } from './session-writer.js';
import { StoreWriteError } from './store-write-error.js';

/** What a prompt resolves with. */
export interface PromptOutcome {
  stopReason: TurnStopReason;
  /** Set when the session's budget ended the turn. */
  budgetExceeded?: string;
}

/** The prompt a turn starts from. */
export interface TurnPrompt {
  message: UserMessage;
  blocks: ContentBlock[];
  origin: string | undefined;
  run: RunOverrides | undefined;
  /** The permission mode the turn holds over its project's (see RunningTurn). */
  permissionMode: PermissionMode | undefined;
  /** The turn's id when its caller chose it (a queued job's, see SubmitOptions.turnId). */
  turnId?: string;
  /** A slot its caller already holds (a queued job takes one before it is fetched); the turn gives it back when it ends. */
  slot?: ReleaseSlot;
}

/** The parts of its session a turn's start and end write to. */
export interface TurnLifecycleParts {
  writer: SessionWriter;
  conversation: Conversation;
  queues: PromptQueues;
  store: Store;
  log(line: string): void;
  /** Told each new state of the session's state machine. */
  stateChanged?(state: SessionState): void;
  /** The daemon's turn slots (`cluster.concurrency`); absent for a sub-agent, which runs inside its parent's turn. */
  slots?: TurnSlots;
}

/**
 * One session's turns from start to end, and its compactions, in its state machine: a turn
 * starts with its prompt stored, ends recorded with every prompt it took answered, and
 * stops on session/cancel or session/abort.
 */
export class TurnLifecycle {
  private readonly machine: SessionStateMachine;
  private turn: RunningTurn | undefined;
  /** Settles when the latest turn has ended, however it ended. */
  private ended: Promise<unknown> = Promise.resolve();
  /** Set while a compaction runs outside a turn. */
  private compaction: AbortController | undefined;
  /** abort({ keepQueues: true }) asked to keep the queued messages for the next turn. */
  private keepQueues = false;

  constructor(private readonly parts: TurnLifecycleParts) {
    this.machine = new SessionStateMachine((state) => parts.stateChanged?.(state));
  }

  get state(): SessionState {
    return this.machine.state;
  }

  /** The turn in progress, if any. */
  get current(): RunningTurn | undefined {
    return this.turn;
  }

  /** Resolves once no turn is being aborted (at once when none is). */
  async stopped(): Promise<void> {
    while (this.machine.state === 'aborting') await this.ended;
  }

  /**
   * Starts a turn: stores its prompt, then runs `work` (the loop) and ends the turn whatever
   * happened. Rejects, with nothing left running, when the prompt cannot be stored. The
   * session is busy from this call on, before any write, so a second prompt sent while the
   * first is being stored is refused or queued, never started beside it.
   */
  start(prompt: TurnPrompt, work: (turn: RunningTurn) => Promise<LoopResult>): Promise<PromptOutcome> {
    const turn = new RunningTurn(prompt.origin, prompt.run, prompt.permissionMode, prompt.turnId);
    this.machine.turnStarted();
    this.turn = turn;
    this.parts.writer.remember(prompt.message, prompt.blocks, prompt.origin);
    const done = this.storePromptThenRun(turn, prompt, work);
    this.ended = done.catch(() => undefined);
    return done;
  }

  /**
   * A turn slot first (the session is busy meanwhile: prompts join its queues, a cancel
   * ends the wait with nothing stored), then the turn's row, its prompt (the turn's first
   * message) and the loop. The slot is given back when the turn ends, however it ends.
   */
  private async storePromptThenRun(turn: RunningTurn, prompt: TurnPrompt, work: (turn: RunningTurn) => Promise<LoopResult>): Promise<PromptOutcome> {
    let release: ReleaseSlot | undefined = prompt.slot;
    try {
      release ??= await this.parts.slots?.acquire(turn.signal);
    } catch {
      return this.cancelledBeforeStart();
    }
    try {
      return await this.storePromptThenRunInSlot(turn, prompt, work);
    } finally {
      release?.();
    }
  }

  /** A turn cancelled while it waited for a slot: nothing was stored, and every prompt it took answers `cancelled`. */
  private cancelledBeforeStart(): PromptOutcome {
    this.turn = undefined;
    this.machine.turnEnded();
    this.parts.queues.settle('cancelled', undefined);
    if (this.keepQueues) this.keepQueues = false;
    else this.parts.queues.clear('cancelled', undefined);
    return { stopReason: 'cancelled' };
  }

  private async storePromptThenRunInSlot(turn: RunningTurn, prompt: TurnPrompt, work: (turn: RunningTurn) => Promise<LoopResult>): Promise<PromptOutcome> {
    const { writer } = this.parts;
    try {
      await writer.startTurn(turn.id);
      await writer.commit(prompt.message, { status: 'complete' });
      await writer.titleFrom(prompt.blocks);
    } catch (error) {
      // Nothing ran: the session must not stay busy because the store failed.
      await this.endFailedTurn(error as Error);
      this.turn = undefined;
      this.machine.turnEnded();
      throw error;
    }
    this.parts.conversation.append(prompt.message);
    return this.run(turn, work);
  }

  /** Runs `work` (a compaction outside a turn) in the compacting state; a cancel aborts its signal. */
  async compact<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.machine.compactionStarted();
    const controller = new AbortController();
    this.compaction = controller;
    try {
      return await work(controller.signal);
    } finally {
      this.compaction = undefined;
      this.machine.compactionEnded();
    }
  }

  /** Stops the running turn (its prompt answers `cancelled`) or compaction. */
  cancel(): void {
    if (this.machine.state === 'running') this.machine.abortRequested();
    this.turn?.cancel();
    this.compaction?.abort(new Error('cancelled'));
  }

  /** Stops the running turn and resolves once it has fully stopped; queues are cleared unless kept. */
  async abort(keepQueues: boolean): Promise<void> {
    const turn = this.turn;
    if (keepQueues && turn) this.keepQueues = true;
    else this.parts.queues.clear();
    this.cancel();
    if (turn) await this.ended;
  }

  private async run(turn: RunningTurn, work: (turn: RunningTurn) => Promise<LoopResult>): Promise<PromptOutcome> {
    const { writer, queues } = this.parts;
    let outcome: PromptOutcome = { stopReason: 'end_turn' };
    let failure: Error | undefined;
    try {
      const result = await work(turn);
      outcome = { stopReason: result.stopReason, ...(result.budgetExceeded ? { budgetExceeded: result.budgetExceeded } : {}) };
      if (result.error) failure = new TurnFailedError(result.error);
    } catch (error) {
      failure = error as Error;
      this.log(`turn failed: ${failure.stack ?? failure.message}`);
    }
    try {
      await writer.endTurn(failure ? 'error' : outcome.stopReason, failure?.message ?? null);
    } catch (error) {
      // The turn's messages are saved, its end is not (it is, before the next turn).
      failure ??= error as Error;
      this.log((error as Error).message);
    }
    // Before the session is idle again: the next turn starts from the reloaded history.
    if (failure instanceof StoreWriteError) await this.reloadHistory();
    this.turn = undefined;
    this.machine.turnEnded();
    queues.settle(outcome.stopReason, failure);
    // Messages still waiting (the turn ended before it could take them) get the turn's
    // outcome too, unless an abort asked to keep them for the next turn.
    if (this.keepQueues) this.keepQueues = false;
    else queues.clear(outcome.stopReason, failure);
    if (failure) throw failure;
    return outcome;
  }

  /** A turn that failed before its loop ran: record its end if it was started at all. */
  private async endFailedTurn(error: Error): Promise<void> {
    try {
      await this.parts.writer.endTurn('error', error.message);
    } catch (failure) {
      this.log((failure as Error).message);
    }
  }

  /**
   * After a failed write the history in memory may hold messages the store does not:
   * continue from what is stored, as a reload would, so the next request and a later
   * session/load see the same conversation.
   */
  private async reloadHistory(): Promise<void> {
    try {
      this.parts.conversation.replace(repairTranscript(historyFromRecords(await this.parts.store.listMessages(this.parts.writer.record.id))));
    } catch (error) {
      this.log(`cannot reload the history: ${(error as Error).message}`);
    }
  }

  private log(line: string): void {
    this.parts.log(`session ${this.parts.writer.record.id}: ${line}`);
  }
}
