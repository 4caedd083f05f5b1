import type { ContentBlock } from '../../protocol/index.js';
import type { Conversation } from '../loop/conversation.js';
import type { LoopResult, TurnStopReason } from '../loop/loop-event.js';
import { repairTranscript } from '../loop/repair-transcript.js';
import type { UserMessage } from '../providers/message.js';
import type { Store } from '../store/store.js';
import type { CostTracker } from '../loop/track-cost.js';
import { StoreError } from '../store/store-error.js';
import { historyFromRecords } from './compaction-marker.js';
import type { PromptQueues } from './prompt-queues.js';
import type { SessionLeases } from './session-leases.js';
import type { SessionEvent } from './session-event.js';
import type { RunOverrides } from '../project/run-overrides.js';
import type { PermissionMode } from '../tools/permissions/permission-modes.js';
import { RunningTurn } from './running-turn.js';
import type { ReleaseSlot, TurnSlots } from './turn-slots.js';
import { TurnFailedError } from './session-errors.js';
import { SessionStateMachine, type SessionState } from './session-state.js';
import type { SessionWriter } from './session-writer.js';
import { guardStoreWrite, StoreWriteError } from './store-write-error.js';

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
  /** The stored pending prompt it delivers (a follow-up whose turn ended while it was stored): removed with its append. */
  pendingId?: string;
}

/** The parts of its session a turn's start and end write to. */
export interface TurnLifecycleParts {
  writer: SessionWriter;
  conversation: Conversation;
  queues: PromptQueues;
  store: Store;
  /** The session's lease: held from a turn's start until the session is idle again. */
  leases: SessionLeases;
  /** Shows an event in the session's stream (waiting for another daemon). */
  emit(event: SessionEvent): void;
  /** The session's cost, read again with its record when another daemon changed it. */
  cost: CostTracker;
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
    this.parts.writer.remember(prompt.message, prompt.blocks, prompt.origin, prompt.pendingId);
    const done = this.storePromptThenRun(turn, prompt, work);
    this.ended = done.catch(() => undefined);
    return done;
  }

  /**
   * A turn slot first (the session is busy meanwhile: prompts join its queues, a cancel
   * ends the wait with nothing stored), then the session's lease, the turn's row, its
   * prompt (the turn's first message) and the loop. The slot is given back when the turn
   * ends, however it ends.
   */
  private async storePromptThenRun(turn: RunningTurn, prompt: TurnPrompt, work: (turn: RunningTurn) => Promise<LoopResult>): Promise<PromptOutcome> {
    let release: ReleaseSlot | undefined = prompt.slot;
    try {
      release ??= await this.parts.slots?.acquire(turn.signal);
    } catch {
      return await this.cancelledBeforeStart();
    }
    try {
      return await this.storePromptThenRunInSlot(turn, prompt, work);
    } finally {
      release?.();
    }
  }

  /** A turn cancelled while it waited for a slot: nothing was stored, and every prompt it took answers `cancelled`. */
  private async cancelledBeforeStart(): Promise<PromptOutcome> {
    this.turn = undefined;
    this.machine.turnEnded();
    const answered = this.parts.queues.settle('cancelled', undefined);
    if (this.keepQueues) this.keepQueues = false;
    else answered.push(...this.parts.queues.clear('cancelled', undefined));
    await this.dropPending(answered);
    return { stopReason: 'cancelled' };
  }

  private async storePromptThenRunInSlot(turn: RunningTurn, prompt: TurnPrompt, work: (turn: RunningTurn) => Promise<LoopResult>): Promise<PromptOutcome> {
    const { writer } = this.parts;
    try {
      await this.claimLease(turn);
    } catch (error) {
      // Cancelled (or failed) while another daemon ran the session: nothing was stored or run.
      const cancelled = turn.signal.aborted;
      this.turn = undefined;
      this.machine.turnEnded();
      if (this.keepQueues) this.keepQueues = false;
      else await this.dropPending(this.parts.queues.clear('cancelled', cancelled ? undefined : (error as Error)));
      this.releaseIfIdle();
      if (cancelled) return { stopReason: 'cancelled' };
      throw error;
    }
    try {
      await writer.startTurn(turn.id);
      await writer.commit(prompt.message, { status: 'complete' });
      await writer.titleFrom(prompt.blocks);
    } catch (error) {
      // Nothing ran: the session must not stay busy because the store failed.
      await this.endFailedTurn(error as Error);
      this.turn = undefined;
      this.machine.turnEnded();
      this.releaseIfIdle();
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
    const dropped = keepQueues && turn ? [] : this.parts.queues.clear();
    if (keepQueues && turn) this.keepQueues = true;
    this.cancel();
    await this.dropPending(dropped);
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
    if (failure instanceof StoreWriteError || isFenced(failure)) await this.reloadHistory();
    this.turn = undefined;
    this.machine.turnEnded();
    const answered = queues.settle(outcome.stopReason, failure);
    // Messages still waiting (the turn ended before it could take them) get the turn's
    // outcome too, unless an abort asked to keep them for the next turn.
    if (this.keepQueues) this.keepQueues = false;
    else answered.push(...queues.clear(outcome.stopReason, failure));
    // Before the lease goes: a row left behind would run again once this daemon is gone.
    await this.dropPending(answered);
    this.releaseIfIdle();
    if (failure) throw failure;
    return outcome;
  }

  /**
   * Holds the session's lease for the turn, waiting while another live daemon runs it. When
   * another daemon extended the session meanwhile (its stored record changed since this
   * daemon last wrote or read it), the record and history are read again first, so the
   * model sees the whole conversation.
   */
  private async claimLease(turn: RunningTurn): Promise<void> {
    const { writer, store, leases } = this.parts;
    const id = writer.record.id;
    // The lease is the turn's first write: a database that cannot take it fails the turn's start.
    await guardStoreWrite('the start of the turn', () =>
      leases.acquire(id, turn.signal, (holder) =>
        this.parts.emit({ type: 'notice', level: 'info', message: `daemon ${holder} is running this session; the prompt starts once that turn ends` }),
      ),
    );
    await writer.settled();
    const stored = await store.getSession(id);
    if (stored !== undefined && stored.updatedAt !== writer.record.updatedAt) {
      writer.record = stored;
      this.parts.cost.resumeFrom(stored.totalCostUsd);
      this.parts.queues.restoreModes(stored.meta.deliveryModes);
      await this.reloadHistory();
    }
  }

  /** Idle with nothing queued: the session belongs to no daemon until its next turn. */
  private releaseIfIdle(): void {
    if (this.machine.state === 'idle' && !this.parts.queues.has('steering') && !this.parts.queues.has('followUp')) {
      this.parts.leases.release(this.parts.writer.record.id);
    }
  }

  /**
   * Removes the stored rows of prompts answered here (delivered ones went with their
   * message; dropped ones and those whose turn failed first are still there). A failure is
   * logged: the row stays, and would run as its own turn if this daemon stopped first.
   */
  async dropPending(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    try {
      await this.parts.store.pendingPrompts.remove(ids);
    } catch (error) {
      this.log(`could not remove ${ids.length} answered queued prompt(s) from the store: ${(error as Error).message}`);
    }
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

function isFenced(error: unknown): boolean {
  return error instanceof StoreError && error.code === 'fenced';
}
