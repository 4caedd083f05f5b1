import { randomUUID } from 'node:crypto';
import type { ContentBlock } from '../../protocol/index.js';
import { CompactionTracker } from '../loop/compaction-tracker.js';
import { Conversation } from '../loop/conversation.js';
import type { TurnPort, TurnSettings } from '../loop/loop-context.js';
import type { TurnStopReason } from '../loop/loop-event.js';
import { repairTranscript } from '../loop/repair-transcript.js';
import { CostTracker } from '../loop/track-cost.js';
import { TurnRunner } from '../loop/turn-runner.js';
import type { ModelMessage, UserMessage } from '../providers/message.js';
import type { ProviderError } from '../providers/provider-error.js';
import type { SessionRecord, Store } from '../store/store.js';
import { FileStateTracker } from '../tools/file-state-tracker.js';
import { compactionMarker, historyFromRecords } from './compaction-marker.js';
import { convertPrompt } from './convert-prompt.js';
import { PromptQueues, type QueueMode, type QueueName } from './prompt-queues.js';
import { InFlightEvents } from './in-flight-events.js';
import { LiveServices } from './live-services.js';
import { McpStartDisplay } from './mcp-start-display.js';
import type { McpServerStatus } from '../tools/mcp/mcp-manager.js';
import type { ToolHost } from './create-tool-dispatch.js';
import type { RunOverrides } from './run-overrides.js';
import type { SessionEvent } from './session-event.js';
import type { SessionServices } from './session-services.js';
import { turnSettings } from './turn-settings.js';
import type { Usage } from '../providers/usage.js';
import { SessionWriter } from './session-writer.js';
import { StoreWriteError } from './store-write-error.js';
import { RunTurnBusyError, SessionBusyError, TurnFailedError, UnknownChoiceError } from './session-errors.js';

/** How a prompt sent while a turn runs is delivered (`_meta.agentd.delivery`). */
export type PromptDelivery = 'steer' | 'followUp';

/** What a prompt resolves with. */
export interface PromptOutcome {
  stopReason: TurnStopReason;
  /** Set when the session's budget ended the turn. */
  budgetExceeded?: string;
}

/**
 * One conversation: its history, its state (idle or running one turn), its queues and
 * its event stream. Every committed message goes to the store before its event goes out.
 */
export class Session {
  private readonly listeners = new Set<(event: SessionEvent) => void>();
  private readonly inFlight = new InFlightEvents();
  private readonly queues = new PromptQueues((snapshot) => this.emit({ type: 'queue', ...snapshot }));
  /** Per-session read tracking, so write and edit refuse stale or unseen files. */
  private readonly fileState = new FileStateTracker();
  private readonly conversation: Conversation;
  private readonly cost: CostTracker;
  private readonly writer: SessionWriter;
  /** The session's loop, built when its first turn (or compaction) needs it. */
  private runner: TurnRunner | undefined;
  /** What tool dispatch needs of this session. */
  private readonly toolHost: ToolHost;
  /** Set while session/compact runs outside a turn. */
  private compacting: AbortController | undefined;
  /** abort({ keepQueues: true }) asked to keep the queued messages for the next turn. */
  private keepQueues = false;
  private turn:
    | { id: string; origin: string | undefined; run: RunOverrides | undefined; controller: AbortController; request: AbortController; done: Promise<PromptOutcome> }
    | undefined;
  /** The project's services as the configuration is now, taken up at each turn and model request. */
  private readonly live: LiveServices;
  /** Its MCP servers' waits and failures, shown in its stream. */
  private readonly mcpStarts: McpStartDisplay;

  /**
   * `services` are the session directory's now; `currentServices` gives them again after
   * the daemon reloaded the directory's configuration (the same object while unchanged).
   */
  constructor(
    record: SessionRecord,
    history: ModelMessage[],
    private readonly store: Store,
    services: SessionServices,
    currentServices: () => SessionServices,
  ) {
    this.live = new LiveServices(services, currentServices);
    this.mcpStarts = new McpStartDisplay(record.id, services.mcpServers, (event) => this.publish(event));
    this.toolHost = {
      id: record.id,
      record: () => this.record,
      fileState: this.fileState,
      emit: (event) => this.publish(event),
      steeringPending: () => this.queues.has('steering'),
      runPermissionMode: () => this.turn?.run?.permissionMode,
    };
    this.writer = new SessionWriter(record, store, (event) => this.emit(event));
    this.conversation = new Conversation(history);
    this.cost = new CostTracker(services.costTotals, record.totalCostUsd);
    this.queues.restoreModes(record.meta.deliveryModes);
  }

  get id(): string {
    return this.writer.record.id;
  }

  /** The project's shared toolbox (models, agents, settings) as this session last took it up. */
  get services(): SessionServices {
    return this.live.services;
  }

  /** The stored record, with the session's cost as its one owner counts it. */
  get record(): SessionRecord {
    return { ...this.writer.record, totalCostUsd: this.cost.sessionUsd };
  }

  /** The conversation as the next model request would see it (read only). */
  get messages(): readonly ModelMessage[] {
    return this.conversation.messages;
  }

  /** How each queue delivers: every waiting message at once, or one per safe point. */
  deliveryMode(queue: QueueName): QueueMode {
    return this.queues.mode(queue);
  }

  /** Sets a queue's delivery mode (session/set_config_option); stored with the session. */
  setDeliveryMode(queue: QueueName, mode: QueueMode): void {
    const record = this.writer.record;
    const modes = { ...record.meta.deliveryModes, [queue]: mode };
    this.writer.update({ meta: { ...record.meta, deliveryModes: modes } });
    this.queues.setMode(queue, mode);
    this.emit({ type: 'settings_changed' });
  }

  /** The running turn's own settings, when a run set them (see RunOverrides). */
  get runOverrides(): RunOverrides | undefined {
    return this.turn?.run;
  }

  /** Counts a priced model call made for the session outside its loop (an MCP server's sampling): cost, budget and store. */
  addCost(usd: number, usage: Usage): void {
    this.cost.add(usd, usage);
    this.writer.addCost(usd);
  }

  get state(): 'idle' | 'running' {
    return this.turn || this.compacting ? 'running' : 'idle';
  }

  /** Whether messages wait in a queue (steered or followed-up) for a turn to take them. */
  get hasQueuedMessages(): boolean {
    return this.queues.has('steering') || this.queues.has('followUp');
  }

  /** The connection that sent the running prompt, if any. */
  get promptOrigin(): string | undefined {
    return this.turn?.origin;
  }

  /** The id of the turn in progress, if any. */
  get currentTurnId(): string | undefined {
    return this.turn?.id;
  }

  /** What the live stream has shown since the last stored message (see InFlightEvents), for a client joining now. */
  inFlightEvents(): readonly SessionEvent[] {
    return this.inFlight.snapshot();
  }

  /** Receives every event from now on; returns the unsubscribe function. */
  subscribe(listener: (event: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs a turn for the prompt and resolves when it ends. While a turn runs, a prompt
   * with a delivery joins it (steer: before the next model request; followUp: when the
   * model would stop) and resolves when that turn ends; without one it is refused.
   * `run` holds a run's own settings for the turn it starts (never stored, see RunOverrides).
   */
  async prompt(blocks: ContentBlock[], options: { delivery?: PromptDelivery; origin?: string; run?: RunOverrides } = {}): Promise<PromptOutcome> {
    const message: UserMessage = { role: 'user', content: convertPrompt(blocks) };
    // A prompt sent right after session/cancel, without waiting for the cancelled prompt's
    // answer (avante.nvim does this), runs once that turn has stopped instead of failing.
    while (!options.delivery && this.turn?.controller.signal.aborted) await this.turn.done.catch(() => undefined);
    if (this.compacting) throw new SessionBusyError(this.id);
    if (this.turn) {
      if (!options.delivery) throw new SessionBusyError(this.id);
      const queue: QueueName = options.delivery === 'steer' ? 'steering' : 'followUp';
      const reason = await this.enqueue(queue, message, blocks, options.origin);
      return { stopReason: reason };
    }
    return this.startTurn(message, blocks, options.origin, options.run);
  }

  /**
   * `session/steer` and `session/followUp`: queued when a turn runs (answered at once with
   * the queue length), a new turn otherwise. `interrupt` ends the stream in flight.
   */
  deliver(queue: QueueName, blocks: ContentBlock[], options: { interrupt?: boolean; origin?: string } = {}): number {
    const message: UserMessage = { role: 'user', content: convertPrompt(blocks) };
    if (this.compacting) throw new SessionBusyError(this.id);
    if (!this.turn) {
      void this.startTurn(message, blocks, options.origin).catch((error: Error) => this.services.log(`session ${this.id}: ${error.message}`));
      return 0;
    }
    const waiting = this.enqueue(queue, message, blocks, options.origin);
    void waiting.catch(() => undefined);
    if (options.interrupt && queue === 'steering') this.turn.request.abort(new Error('interrupted by a steer'));
    return this.queues.snapshot()[queue];
  }

  /** True while a steering message waits for the next safe point. */
  hasSteering(): boolean {
    return this.queues.has('steering');
  }

  /** Stops the running turn (ACP session/cancel); the prompt answers `cancelled`. */
  cancel(): void {
    this.turn?.controller.abort(new Error('cancelled'));
    this.compacting?.abort(new Error('cancelled'));
  }

  /** Stops the running turn and resolves once it has fully stopped; queues are cleared unless kept. */
  async abort(options: { keepQueues?: boolean } = {}): Promise<void> {
    const turn = this.turn;
    if (options.keepQueues && turn) this.keepQueues = true;
    else this.queues.clear();
    this.cancel();
    if (turn) await turn.done.catch(() => undefined);
  }

  /** Switches the agent; takes effect at the next turn. Throws for an unknown mode. */
  setMode(modeId: string): void {
    const agents = this.services.agents(this.record);
    if (!agents.some((a) => a.name === modeId)) {
      throw new UnknownChoiceError(`unknown mode "${modeId}"; available: ${agents.map((a) => a.name).join(', ')}`);
    }
    this.writer.update({ mode: modeId });
    this.emit({ type: 'mode_changed', modeId });
  }

  /** Chooses the session's model (`provider/model`); checked by resolving it now. */
  setModel(ref: string): void {
    this.services.resolveModel(ref);
    this.writer.update({ model: ref });
    this.emit({ type: 'settings_changed' });
  }

  /**
   * Compacts the conversation now (session/compact); only while idle, and the session
   * stays busy (refusing prompts, cancellable) until the summary is applied.
   */
  async compactNow(): Promise<boolean> {
    if (this.turn || this.compacting) throw new SessionBusyError(this.id);
    const controller = new AbortController();
    this.compacting = controller;
    try {
      const services = this.live.refresh();
      const agent = services.agent(this.record);
      const model = services.resolveModel(agent.model ?? this.record.model);
      const runner = await this.turnRunner(services);
      return await runner.compactNow(await turnSettings(services, this.record, agent, model, { signal: controller.signal, requestSignal: () => controller.signal }));
    } finally {
      this.compacting = undefined;
    }
  }

  /** A state change of an MCP server this session sees (the daemon's or its own): a failure is shown once. */
  showMcpServer(status: McpServerStatus): void {
    this.mcpStarts.observe(status);
  }

  /** The MCP server failures that stand now, as events for a client loading the session (replay). */
  mcpServerFailures(): SessionEvent[] {
    return this.mcpStarts.replay();
  }

  /** Sends an event to every subscriber (used by the tool runtime). */
  publish(event: SessionEvent): void {
    this.writer.observe(event);
    this.emit(event);
  }

  private enqueue(queue: QueueName, message: UserMessage, blocks: ContentBlock[], origin: string | undefined): Promise<TurnStopReason> {
    // A message may not join a run's turn that has its own permission mode: it would run in that mode.
    if (this.turn?.run?.permissionMode !== undefined) throw new RunTurnBusyError(this.id, this.turn.run.permissionMode);
    this.writer.remember(message, blocks, origin);
    return new Promise((resolve, reject) => {
      this.queues.push(queue, { message, blocks, origin, done: { resolve, reject } });
    });
  }

  private startTurn(message: UserMessage, blocks: ContentBlock[], origin: string | undefined, run?: RunOverrides): Promise<PromptOutcome> {
    const services = this.live.refresh();
    const agent = services.agent(this.record);
    // Resolve the model before anything is stored, so a misconfiguration loses nothing.
    const model = services.resolveModel(agent.model ?? this.record.model);
    const id = randomUUID();
    const controller = new AbortController();
    const turn = { id, origin, run, controller, request: new AbortController(), done: undefined as unknown as Promise<PromptOutcome> };
    this.turn = turn;
    try {
      this.writer.startTurn(id);
      this.writer.remember(message, blocks, origin);
      this.writer.commit(message, { status: 'complete' });
      this.writer.titleFrom(blocks);
    } catch (error) {
      // Nothing ran: the session must not stay busy because the store failed.
      this.turn = undefined;
      this.endFailedTurn(error as Error);
      throw error;
    }
    this.conversation.append(message);

    turn.done = (async (): Promise<PromptOutcome> => {
      let outcome: PromptOutcome = { stopReason: 'end_turn' };
      let failure: Error | undefined;
      try {
        const runner = await this.turnRunner(services);
        // A prompt sent right after session/new gets the tools of servers still starting.
        await this.mcpStarts.beforeTurn(controller.signal);
        this.live.turnStarted(services, agent);
        const settings = await turnSettings(services, this.record, agent, model, {
          signal: controller.signal,
          requestSignal: () => {
            if (turn.request.signal.aborted) turn.request = new AbortController();
            return AbortSignal.any([controller.signal, turn.request.signal]);
          },
        }, run);
        const result = await runner.run(settings);
        outcome = { stopReason: result.stopReason, ...(result.budgetExceeded ? { budgetExceeded: result.budgetExceeded } : {}) };
        if (result.error) failure = new TurnFailedError(result.error);
      } catch (error) {
        failure = error as Error;
        this.services.log(`session ${this.id}: turn failed: ${failure.stack ?? failure.message}`);
      }
      try {
        this.writer.endTurn(failure ? 'error' : outcome.stopReason, failure?.message ?? null);
      } catch (error) {
        // The turn's messages are saved, its end is not (it is, before the next turn).
        failure ??= error as Error;
        this.services.log(`session ${this.id}: ${(error as Error).message}`);
      }
      this.turn = undefined;
      if (failure instanceof StoreWriteError) this.reloadHistory();
      this.queues.settle(outcome.stopReason, failure);
      // Messages still waiting (the turn ended before it could take them) get the turn's
      // outcome too, unless an abort asked to keep them for the next turn.
      if (this.keepQueues) this.keepQueues = false;
      else this.queues.clear(outcome.stopReason, failure);
      if (failure) throw failure;
      return outcome;
    })();
    return turn.done;
  }

  /** A turn that failed before its loop ran: record its end if it was started at all. */
  private endFailedTurn(error: Error): void {
    try {
      this.writer.endTurn('error', error.message);
    } catch (failure) {
      this.services.log(`session ${this.id}: ${(failure as Error).message}`);
    }
  }

  /**
   * After a failed write the history in memory may hold messages the store does not:
   * continue from what is stored, as a reload would, so the next request and a later
   * session/load see the same conversation.
   */
  private reloadHistory(): void {
    try {
      this.conversation.replace(repairTranscript(historyFromRecords(this.store.listMessages(this.id))));
    } catch (error) {
      this.services.log(`session ${this.id}: cannot reload the history: ${(error as Error).message}`);
    }
  }

  /**
   * The loop, built once (the port through which it reaches this session, and the parts
   * it owns with it), with the tool dispatch of `services` in use. A failure to build the
   * dispatch (the sandbox probe) is retried by the next turn.
   */
  private async turnRunner(services: SessionServices): Promise<TurnRunner> {
    await this.live.useToolsOf(services, this.toolHost);
    this.runner ??= new TurnRunner({
      port: this.turnPort(),
      conversation: this.conversation,
      cost: this.cost,
      compaction: new CompactionTracker(),
      tools: () => this.live.tools(),
    });
    return this.runner;
  }

  private turnPort(): TurnPort {
    return {
      commit: (message, meta) => {
        this.writer.commit(message, meta);
        this.conversation.append(message);
      },
      compacted: (result, priced) => {
        // The store keeps every message; the marker tells a later load where to resume from.
        const [summary] = result.newHistory;
        if (summary?.role === 'user') {
          this.writer.commit(summary, { status: 'complete', ...priced, meta: compactionMarker(result, this.conversation.messages) });
        }
        this.conversation.replace(result.newHistory);
      },
      emit: (event) => this.publish(event),
      take: (queue) => this.queues.take(queue).map((item) => item.message),
      settingsForNextRequest: (current) =>
        this.live.settingsForNextRequest(this.record, current, this.toolHost, (message) => this.publish({ type: 'notice', level: 'warning', message }), this.turn?.run),
    };
  }

  private emit(event: SessionEvent): void {
    this.inFlight.observe(event);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.services.log(`session ${this.id}: listener failed: ${(error as Error).message}`);
      }
    }
  }
}
