import type { ContentBlock } from '../../protocol/index.js';
import { CompactionTracker } from '../loop/compaction-tracker.js';
import { Conversation } from '../loop/conversation.js';
import type { TurnPort } from '../loop/loop-context.js';
import { CostTracker } from '../loop/track-cost.js';
import { TurnRunner } from '../loop/turn-runner.js';
import type { ModelMessage, UserMessage } from '../providers/message.js';
import type { SessionRecord, Store } from '../store/store.js';
import { FileStateTracker } from '../tools/files/file-state-tracker.js';
import { convertPrompt } from './convert-prompt.js';
import { PromptQueues, type QueuedPrompt, type QueueMode, type QueueName } from './prompt-queues.js';
import { LiveProject } from './live-project.js';
import { McpStartDisplay } from './mcp-start-display.js';
import type { McpServerStatus } from '../tools/mcp/mcp-manager.js';
import type { ToolHost } from '../project/project-tools.js';
import type { RunOverrides } from '../project/run-overrides.js';
import type { SessionEvent } from './session-event.js';
import { SessionEventStream } from './session-event-stream.js';
import type { Project } from '../project/project.js';
import type { SessionState } from './session-state.js';
import type { Usage } from '../providers/usage.js';
import { SessionWriter } from './session-writer.js';
import type { SessionLeases } from './session-leases.js';
import { releasingOnThrow, type ReleaseSlot, type TurnSlots } from './turn-slots.js';
import { TurnLifecycle, type PromptOutcome } from './turn-lifecycle.js';
import { sessionTurnPort } from './session-turn-port.js';
import { enqueuePrompt } from './enqueue-prompt.js';
import type { PromptDelivery, SubmitOptions, Submission } from './submit-options.js';
import { RunTurnBusyError, SessionBusyError, UnknownChoiceError } from './session-errors.js';

export type { PromptOutcome } from './turn-lifecycle.js';

export type { PromptDelivery, SubmitOptions, Submission } from './submit-options.js';

/** A submission's `queued` when it started (or will start) a turn instead of joining a queue. */
const STARTED_TURN: Promise<undefined> = Promise.resolve(undefined);

/**
 * One conversation: its history, its state (see SessionState), its queues and its event
 * stream. Every committed message goes to the store before its event goes out.
 */
export class Session {
  private readonly events: SessionEventStream;
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
  /** Its turns and compactions, and the state they put it in. */
  private readonly turns: TurnLifecycle;
  /** The session's project as its configuration is now, taken up at each turn and model request. */
  private readonly live: LiveProject;
  /** Its MCP servers' waits and failures, shown in its stream. */
  private readonly mcpStarts: McpStartDisplay;
  /** Told each new state (see onStateChange). */
  private readonly stateListeners = new Set<(state: SessionState) => void>();

  /**
   * `project` is the session directory's; `currentProject` gives it again as the
   * directory's settings are now (its version rises when one of its files changed).
   * `slots`, when given, are the daemon's turn slots each of its turns takes one of.
   */
  constructor(
    record: SessionRecord,
    history: ModelMessage[],
    store: Store,
    project: Project,
    currentProject: () => Project,
    leases: SessionLeases,
    slots?: TurnSlots,
  ) {
    this.live = new LiveProject(project, currentProject);
    this.events = new SessionEventStream((line) => this.project.log(`session ${this.id}: ${line}`));
    this.mcpStarts = new McpStartDisplay(record.id, project.mcpServers, (event) => this.emit(event));
    this.toolHost = {
      id: record.id,
      record: () => this.record,
      fileState: this.fileState,
      emit: (event) => this.emit(event),
      steeringPending: () => this.queues.has('steering'),
      turnPermissionMode: () => this.turns.current?.permissionMode,
    };
    this.writer = new SessionWriter(record, store, (event) => this.emit(event));
    this.conversation = new Conversation(history);
    this.cost = new CostTracker(project.costTotals, record.totalCostUsd);
    const { writer, conversation, queues, cost } = this;
    const log = (line: string): void => this.project.log(line);
    this.turns = new TurnLifecycle({ writer, conversation, queues, cost, store, leases, emit: (event) => this.emit(event), log, stateChanged: (state) => this.stateChanged(state), ...(slots ? { slots } : {}) });
    this.queues.restoreModes(record.meta.deliveryModes);
  }

  get id(): string {
    return this.writer.record.id;
  }

  /** The project's shared toolbox (models, agents, settings) as this session last took it up. */
  get project(): Project {
    return this.live.project;
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
  async setDeliveryMode(queue: QueueName, mode: QueueMode): Promise<void> {
    await this.writer.updateMeta((meta) => ({ ...meta, deliveryModes: { ...meta.deliveryModes, [queue]: mode } }));
    this.queues.setMode(queue, mode);
    this.emit({ type: 'settings_changed' });
  }

  /** The running turn's own settings, when a run set them (see RunOverrides). */
  get runOverrides(): RunOverrides | undefined {
    return this.turns.current?.run;
  }

  /** Counts a priced model call made for the session outside its loop (an MCP server's sampling): cost, budget and store. */
  async addCost(usd: number, usage: Usage): Promise<void> {
    this.cost.add(usd, usage);
    await this.writer.addCost(usd);
  }

  get state(): SessionState {
    return this.turns.state;
  }

  /** Told each new state (a turn started or ended, an abort asked for, a compaction); returns the unsubscribe function. */
  onStateChange(listener: (state: SessionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Whether messages wait in a queue (steered or followed-up) for a turn to take them. */
  get hasQueuedMessages(): boolean {
    return this.queues.has('steering') || this.queues.has('followUp');
  }

  /** The connection that sent the running prompt, if any. */
  get promptOrigin(): string | undefined {
    return this.turns.current?.origin;
  }

  /** Resolves once every store write asked for so far has settled (session/delete waits for it). */
  writesSettled(): Promise<void> {
    return this.writer.settled();
  }

  /** Reads the store while none of this session's writes is in flight (see SessionWriter.readSettled), for a replay. */
  readSettled<T>(read: (writes: number) => Promise<T>): Promise<T> {
    return this.writer.readSettled(read);
  }

  /** The id of the turn in progress, if any. */
  get currentTurnId(): string | undefined {
    return this.turns.current?.id;
  }

  /** What the live stream has shown since the last stored message (see InFlightEvents), for a client joining now. */
  inFlightEvents(): readonly SessionEvent[] {
    return this.events.inFlightEvents();
  }

  /** Receives every event from now on; returns the unsubscribe function. */
  subscribe(listener: (event: SessionEvent) => void): () => void {
    return this.events.subscribe(listener);
  }

  /** Shows this daemon's subscribers an event of the session's turn on another daemon (see CrossDaemonUpdates); nothing is stored. */
  relay(event: SessionEvent): void {
    this.events.send(event);
  }

  /** Takes up what another daemon stored, only while no turn runs here: a turn's record and history, or (no history) the settings alone, keeping updatedAt so the next turn here reads the whole session again. */
  adoptStored(record: SessionRecord, history?: ModelMessage[]): void {
    if (this.turns.state !== 'idle') return;
    const { mode, model, title, meta } = record;
    this.writer.record = history ? record : { ...this.writer.record, mode, model, title, meta };
    if (history) this.cost.restore(record.totalCostUsd);
    if (history) this.conversation.replace(history);
    this.queues.restoreModes(record.meta.deliveryModes);
  }

  /** Sends an event to every subscriber: the session's own, its loop's, its tools' and the daemon's notices. */
  emit(event: SessionEvent): void {
    // What live clients were shown is stored with the message it belongs to.
    this.writer.observe(event);
    this.events.send(event);
  }

  /**
   * The one way a prompt comes in (session/prompt, session/steer, session/followUp, a
   * scheduled run, a sub-agent). Idle, it starts a turn. While a turn runs, a prompt with
   * a delivery joins its queue and is answered when that turn ends; one without waits for
   * a cancelled turn to stop (a client may prompt right after session/cancel without
   * waiting for its answer, as avante.nvim does) and is refused as busy otherwise.
   */
  submit(blocks: ContentBlock[], options: SubmitOptions = {}): Submission {
    if (!options.delivery) return { queued: STARTED_TURN, outcome: this.promptWhenFree(blocks, options) };
    const message: UserMessage = { role: 'user', content: convertPrompt(blocks) };
    const state = this.turns.state;
    if (state === 'idle') return { queued: STARTED_TURN, outcome: this.startTurn(message, blocks, options) };
    // Joining a running turn (or refused): a slot the caller brought is not needed.
    options.slot?.();
    if (state === 'compacting') throw new SessionBusyError(this.id);
    return this.enqueue(options.delivery === 'steer' ? 'steering' : 'followUp', message, blocks, options);
  }

  /** This daemon lost the session's lease to another daemon: the running turn stops, as none of its writes would be stored. */
  leaseLost(): void {
    if (this.turns.state !== 'running') return;
    this.emit({ type: 'notice', level: 'error', message: 'this daemon lost its lease on the session (another daemon took it over); the running turn stops and nothing more of it is saved' });
    this.turns.cancel();
  }

  /** True while a steering message waits for the next safe point. */
  hasSteering(): boolean {
    return this.queues.has('steering');
  }

  /** Stops the running turn (ACP session/cancel); the prompt answers `cancelled`. */
  cancel(): void {
    this.turns.cancel();
  }

  /** Stops the running turn and resolves once it has fully stopped; queues are cleared unless kept. */
  abort(options: { keepQueues?: boolean } = {}): Promise<void> {
    return this.turns.abort(options.keepQueues === true);
  }

  /** Switches the agent; takes effect at the next turn. Rejects for an unknown mode. */
  async setMode(modeId: string): Promise<void> {
    const agents = this.project.agents(this.record);
    if (!agents.some((a) => a.name === modeId)) {
      throw new UnknownChoiceError(`unknown mode "${modeId}"; available: ${agents.map((a) => a.name).join(', ')}`);
    }
    await this.writer.update({ mode: modeId });
    this.emit({ type: 'mode_changed', modeId });
  }

  /** Chooses the session's model (`provider/model`); checked by resolving it now. */
  async setModel(ref: string): Promise<void> {
    this.project.resolveModel(ref);
    await this.writer.update({ model: ref });
    this.emit({ type: 'settings_changed' });
  }

  /** Idle, and no prompt has come yet. */
  awaitsFirstPrompt(): boolean {
    return this.turns.state === 'idle' && this.runner === undefined && this.conversation.length === 0;
  }

  /**
   * While the session waits for its first prompt: opens a connection to the server of the
   * model a prompt would use now (sending nothing), and builds what a first turn builds
   * before its request (the tool dispatch, the system prompt, the tool specs), so that the
   * first prompt finds them made. Nothing here may fail: a model that cannot be resolved
   * (a misconfiguration the prompt will report) or a dispatch that cannot be built (which
   * the turn retries) is left for the prompt.
   */
  async warmUp(): Promise<void> {
    try {
      const project = this.live.refresh();
      const agent = project.agent(this.record);
      const model = project.resolveModel(agent.model ?? this.record.model);
      model.model.prepare?.();
      if (!this.awaitsFirstPrompt()) return;
      await this.turnRunner(project);
      const idle = new AbortController().signal;
      await project.turnSettings(this.record, agent, model, { signal: idle, requestSignal: () => idle });
    } catch {
      // The prompt builds these again and says what is wrong.
    }
  }

  /**
   * Compacts the conversation now (session/compact); only while idle, and the session
   * stays busy (refusing prompts, cancellable) until the summary is applied.
   */
  async compactNow(): Promise<boolean> {
    if (this.turns.state !== 'idle') throw new SessionBusyError(this.id);
    return this.turns.compact(async (signal) => {
      const project = this.live.refresh();
      const agent = project.agent(this.record);
      const model = project.resolveModel(agent.model ?? this.record.model);
      const runner = await this.turnRunner(project);
      return runner.compactNow(await project.turnSettings(this.record, agent, model, { signal, requestSignal: () => signal }));
    });
  }

  /** A state change of an MCP server this session sees (the daemon's or its own): a failure is shown once. */
  showMcpServer(status: McpServerStatus): void {
    this.mcpStarts.observe(status);
  }

  /** The MCP server failures that stand now, as events for a client loading the session (replay). */
  mcpServerFailures(): SessionEvent[] {
    return this.mcpStarts.replay();
  }

  private stateChanged(state: SessionState): void {
    for (const listener of this.stateListeners) {
      try {
        listener(state);
      } catch (error) {
        this.project.log(`session ${this.id}: state listener failed: ${(error as Error).message}`);
      }
    }
  }

  private enqueue(queue: QueueName, message: UserMessage, blocks: ContentBlock[], options: SubmitOptions): Submission {
    // A message may not join a run's turn that has its own permission mode: it would run in that mode.
    const permissionMode = this.turns.current?.run?.permissionMode;
    if (permissionMode !== undefined) throw new RunTurnBusyError(this.id, permissionMode);
    const { writer, queues, turns } = this;
    const startTurn = (item: QueuedPrompt): Promise<PromptOutcome> => this.startTurn(item.message, item.blocks, { origin: item.origin }, item.pendingId);
    return enqueuePrompt({ sessionId: this.id, writer, queues, turns, startTurn }, queue, message, blocks, options);
  }

  private async promptWhenFree(blocks: ContentBlock[], options: SubmitOptions): Promise<PromptOutcome> {
    const message: UserMessage = { role: 'user', content: convertPrompt(blocks) };
    await this.turns.stopped();
    releasingOnThrow(options.slot, () => {
      if (this.turns.state !== 'idle') throw new SessionBusyError(this.id);
    });
    return this.startTurn(message, blocks, options);
  }

  private startTurn(message: UserMessage, blocks: ContentBlock[], { origin, run, turnId, slot }: SubmitOptions, pendingId?: string): Promise<PromptOutcome> {
    const before = this.record;
    const { project, agent, model } = releasingOnThrow(slot, () => {
      const project = this.live.refresh();
      const agent = project.agent(before);
      // Resolve the model before anything is stored, so a misconfiguration loses nothing.
      return { project, agent, model: project.resolveModel(agent.model ?? before.model) };
    });
    // One path for a mode over the project's: the run's own, else the daemon's; held by this turn alone.
    const permissionMode = run?.permissionMode ?? project.turnPermissionMode;
    const prompt = { message, blocks, origin, run, permissionMode, ...(turnId !== undefined ? { turnId } : {}), ...(slot ? { slot } : {}), ...(pendingId !== undefined ? { pendingId } : {}) };
    return this.turns.start(prompt, async (turn) => {
      const runner = await this.turnRunner(project);
      // A prompt sent right after session/new gets the tools of servers still starting.
      await this.mcpStarts.beforeTurn(turn.signal);
      // Another daemon may have changed the mode or model meanwhile (the record was read again when the turn took the session).
      const moved = this.record.mode !== before.mode || this.record.model !== before.model;
      const turnAgent = moved ? project.agent(this.record) : agent;
      const turnModel = moved ? project.resolveModel(turnAgent.model ?? this.record.model) : model;
      this.live.turnStarted(project, turnAgent);
      const requestSignal = (): AbortSignal => turn.requestSignal();
      return runner.run(await project.turnSettings(this.record, turnAgent, turnModel, { signal: turn.signal, requestSignal }, run));
    });
  }

  /**
   * The loop, built once (the port through which it reaches this session, and the parts
   * it owns with it), with the tool dispatch of `project` in use. A failure to build the
   * dispatch (the sandbox probe) is retried by the next turn.
   */
  private async turnRunner(project: Project): Promise<TurnRunner> {
    await this.live.useToolsOf(project, this.toolHost);
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
    return sessionTurnPort({
      writer: this.writer,
      conversation: this.conversation,
      queues: this.queues,
      live: this.live,
      toolHost: this.toolHost,
      record: () => this.record,
      run: () => this.turns.current?.run,
      emit: (event) => this.emit(event),
    });
  }
}
