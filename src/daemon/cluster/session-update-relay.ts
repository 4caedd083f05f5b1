import { catchUpFromUpdates } from '../../session/catch-up-from-updates.js';
import type { CrossDaemonCatchUp } from '../../session/cross-daemon-updates.js';
import type { SessionEvent } from '../../session/session-event.js';
import { sessionEventFromJson } from '../../session/session-event-json.js';
import type { Session } from '../../session/session.js';
import type { SessionManager } from '../../session/session-manager.js';
import type { PostgresSessionUpdates, SessionUpdateRow } from '../../store/postgres-session-updates.js';
import { PERMISSION_QUESTION_KINDS } from '../../store/session-update-kinds.js';

/** Updates that change what the session shows of itself (mode, model, delivery modes, title): taken up from the store first. */
const SETTINGS_KINDS: ReadonlySet<string> = new Set(['mode_changed', 'settings_changed', 'session_info']);

/** What a relay needs of its daemon. */
export interface RelayParts {
  updates: PostgresSessionUpdates;
  daemonId: string;
  sessions: SessionManager;
  /** Marks an event as another daemon's, so this daemon does not publish it again. */
  fromElsewhere(event: SessionEvent): SessionEvent;
  /** Takes a permission question of a turn on another daemon, its settling, or the turn's end (which withdraws it). */
  questionFromElsewhere(sessionId: string, row: SessionUpdateRow): void;
  log(line: string): void;
}

/**
 * Shows one live session's followers on this daemon the updates of its turns on other
 * daemons, in order, exactly once: it keeps the seq delivered up to (its cursor) and, one
 * step at a time, reads the rows after it and sends each through the session's stream as
 * a local event. When a turn from elsewhere ends, the session here takes up what it stored
 * before its followers hear of the end; so it does the settings another daemon changed.
 * A permission question is not an event: it goes to questionFromElsewhere.
 */
export class SessionUpdateRelay {
  /** The newest seq delivered (or skipped, being this daemon's own); undefined until first read. */
  private cursor: number | undefined;
  /** Steps run one at a time, in the order asked. */
  private tail: Promise<unknown> = Promise.resolve();
  private drainAsked = false;

  constructor(
    private readonly session: Session,
    private readonly parts: RelayParts,
    /** Made here just now: it has no updates, and every one from now on is to be shown (read from 0, not from the newest, which another daemon may have appended to meanwhile). */
    created = false,
  ) {
    if (created) this.cursor = 0;
    void this.step(async () => {
      this.cursor ??= await parts.updates.newest(session.id);
    }).catch(() => undefined);
  }

  /** A NOTIFY (or a new LISTEN, seq undefined) says there may be rows after the cursor. */
  wake(seq?: number): void {
    if (seq !== undefined && this.cursor !== undefined && seq <= this.cursor) return;
    if (this.drainAsked) return;
    this.drainAsked = true;
    // A failed read is logged (see step); the next wake-up reads again from the same cursor.
    void this.step(async () => {
      this.drainAsked = false;
      this.cursor ??= await this.parts.updates.newest(this.session.id);
      for (const row of await this.parts.updates.after(this.session.id, this.cursor)) await this.deliver(row);
    }).catch(() => undefined);
  }

  /** See CrossDaemonUpdates.join: the snapshot's newer rows go to the followers first, then `attach` runs. */
  join(attach: (catchUp: CrossDaemonCatchUp) => void): Promise<boolean> {
    return this.step(async () => {
      const snapshot = await this.parts.updates.snapshot(this.session.id);
      const newest = snapshot.updates.at(-1)?.seq ?? 0;
      this.cursor ??= newest;
      for (const row of snapshot.updates) await this.deliver(row);
      this.cursor = Math.max(this.cursor, newest);
      if (this.session.state !== 'idle') return false;
      attach(catchUpFromUpdates(snapshot));
      return true;
    });
  }

  private async deliver(row: SessionUpdateRow): Promise<void> {
    const cursor = this.cursor ?? 0;
    if (row.seq <= cursor) return;
    if (row.seq > cursor + 1) this.parts.log(`session updates: session ${this.session.id} skipped from ${cursor} to ${row.seq} (rows pruned while this daemon was not reading)`);
    this.cursor = row.seq;
    if (row.origin === this.parts.daemonId) return;
    if (PERMISSION_QUESTION_KINDS.has(row.kind) || row.kind === 'turn_end') this.parts.questionFromElsewhere(this.session.id, row);
    if (PERMISSION_QUESTION_KINDS.has(row.kind)) return;
    // The turn's end is stored before it is announced: taken up first, so a client told the
    // turn ended and prompting here at once continues the whole conversation. A setting
    // likewise: a client told the new mode and loading the session here sees it.
    if (row.kind === 'turn_end') await this.parts.sessions.refreshFromStore(this.session.id);
    else if (SETTINGS_KINDS.has(row.kind)) await this.parts.sessions.refreshFromStore(this.session.id, true);
    this.session.relay(this.parts.fromElsewhere(sessionEventFromJson(row.event)));
  }

  private step<T>(work: () => Promise<T>): Promise<T> {
    const done = this.tail.then(work);
    this.tail = done.catch((error: Error) => this.parts.log(`session updates: session ${this.session.id}: ${error.message}`));
    return done;
  }
}
