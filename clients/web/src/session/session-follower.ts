import { signal } from '@preact/signals';
import type { AgentdEvent, SessionConfigOption, SessionModeState, SessionUpdate } from '../../../../protocol/index.js';
import type { AgentdConnection } from '../../../typescript/src/browser.js';
import { announce } from '../shell/announcer.js';
import { reduceSessionUpdate } from './reduce-session-update.js';
import { EMPTY_TRANSCRIPT, type TranscriptState } from './transcript-state.js';

/** Runs `flush` before the next paint; a test passes its own. */
export type FrameScheduler = (flush: () => void) => void;

const nextAnimationFrame: FrameScheduler = (flush) => void requestAnimationFrame(() => flush());

/**
 * One session the page shows: `session/load` replays its history and attaches the page, then
 * its live `session/update`s and `agentd/event`s come here. Updates are queued and reduced
 * once per animation frame, so a stream of thousands of chunks costs one render per frame,
 * not one per chunk.
 */
export class SessionFollower {
  readonly transcript = signal<TranscriptState>(EMPTY_TRANSCRIPT);
  readonly loading = signal(true);
  readonly problem = signal<string | null>(null);
  /** A turn (or a compaction) is running. */
  readonly running = signal(false);
  readonly modes = signal<SessionModeState | null>(null);
  readonly configOptions = signal<readonly SessionConfigOption[]>([]);
  /** Messages waiting in the steering and follow-up queues. */
  readonly queued = signal({ steering: 0, followUp: 0 });
  private pending: SessionUpdate[] = [];
  private scheduled = false;
  /** Messages this page sent, each its own transcript item. */
  private saidCount = 0;
  /** The connection the session was last loaded on: one load per connection. */
  private loadedOn: AgentdConnection | null = null;

  constructor(
    readonly sessionId: string,
    private readonly schedule: FrameScheduler = nextAnimationFrame,
  ) {}

  /** Loads (or, after a reconnect, reloads) the session from its start. */
  async load(client: AgentdConnection, cwd: string): Promise<void> {
    if (this.loadedOn === client) return;
    this.loadedOn = client;
    this.loading.value = true;
    this.pending = [];
    this.transcript.value = EMPTY_TRANSCRIPT;
    try {
      const loaded = await client.request('session/load', { sessionId: this.sessionId, cwd, mcpServers: [] });
      this.modes.value = loaded.modes ?? null;
      this.configOptions.value = loaded.configOptions ?? [];
      this.running.value = loaded._meta?.agentd?.state === 'running';
      this.problem.value = null;
    } catch (error) {
      this.problem.value = `cannot open the session: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.loading.value = false;
    }
  }

  receive(update: SessionUpdate): void {
    this.pending.push(update);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }

  /**
   * What this page itself sent (a prompt, a steering or follow-up message): the daemon echoes a
   * user message to every follower but the one it came from, so the page shows its own.
   */
  said(text: string): void {
    this.receive({ sessionUpdate: 'user_message_chunk', messageId: `page-${++this.saidCount}`, content: { type: 'text', text } });
  }

  /** Applies every queued update at once. */
  flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) this.transcript.value = batch.reduce(reduceSessionUpdate, this.transcript.value);
  }

  event(event: AgentdEvent): void {
    if (event.type === 'turn_start') {
      this.running.value = true;
      announce('The agent is working');
    } else if (event.type === 'turn_end') {
      this.running.value = false;
      announce(event.error ? `The turn failed: ${event.error}` : `The turn ended (${event.stopReason.replace('_', ' ')})`);
    } else if (event.type === 'queue') {
      this.queued.value = { steering: event.steering, followUp: event.followUp };
    }
  }
}
