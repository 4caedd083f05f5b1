import type { SessionUpdateRow, SessionUpdatesSnapshot } from '../store/postgres-session-updates.js';
import { PERMISSION_QUESTION_KINDS } from '../store/session-update-kinds.js';
import type { MessageRecord, TurnRecord } from '../store/store.js';
import type { CrossDaemonCatchUp } from './cross-daemon-updates.js';
import { InFlightEvents } from './in-flight-events.js';
import { sessionEventFromJson } from './session-event-json.js';

/**
 * A turn the store shows ended this recently, with no update of it yet, may still have
 * its updates on the way (its daemon appends them just after storing); an older one's
 * were pruned, or it ran before updates were kept.
 */
const APPEND_LAG_MS = 60_000;

/**
 * The catch-up for a client loading a session, from one snapshot of the store and the
 * session's updates: what a client following from the start has seen up to the snapshot's
 * newest update. A turn's daemon stores a message before it announces it, so the snapshot
 * may hold messages no update has announced yet: in a turn whose updates have not ended,
 * only as many of its messages are replayed as its updates announced (message_committed),
 * and what it showed after the last of them is in flight; the rest comes as updates.
 */
export function catchUpFromUpdates(snapshot: SessionUpdatesSnapshot): CrossDaemonCatchUp {
  const { turns, messages, record } = snapshot;
  // Changes outside a turn are in the record already; a permission question goes to the clients following when it is asked.
  const updates = snapshot.updates.filter((update): update is SessionUpdateRow & { turnId: string } => update.turnId !== null && !PERMISSION_QUESTION_KINDS.has(update.kind));
  const started = new Set<string>();
  const ended = new Set<string>();
  const announced = new Map<string, number>();
  for (const update of updates) {
    if (update.kind === 'turn_start') started.add(update.turnId);
    if (update.kind === 'turn_end') ended.add(update.turnId);
    if (update.kind === 'message_committed') announced.set(update.turnId, (announced.get(update.turnId) ?? 0) + 1);
  }
  // A turn's updates follow those of the turns before it: a turn without any, before one with some, was pruned.
  const withUpdates = new Set(updates.map((update) => update.turnId));
  const newestWithUpdates = turns.findLastIndex((turn) => withUpdates.has(turn.id));
  const now = Date.parse(snapshot.now);
  const unfinished = new Set(
    turns.filter((turn, index) => {
      // An interrupted turn's daemon died: nothing more of it will come, and what it stored is all there is.
      if (ended.has(turn.id) || turn.status === 'interrupted') return false;
      if (started.has(turn.id)) return true;
      if (index < newestWithUpdates) return false;
      return turn.status === 'running' || (turn.endedAt !== null && now - Date.parse(turn.endedAt) < APPEND_LAG_MS);
    }).map((turn) => turn.id),
  );

  const replayed = announcedMessages(messages, unfinished, announced);
  const inFlight = new InFlightEvents();
  for (const update of updates) if (unfinished.has(update.turnId)) inFlight.observe(sessionEventFromJson(update.event));
  const first = replayed.find((message) => message.role === 'user');
  // The title is told after the first prompt: from the updates, when the prompt's turn has not been announced whole.
  const titleToCome = first !== undefined && unfinished.has(first.turnId) && !updates.some((u) => u.turnId === first.turnId && u.kind === 'session_info');
  return {
    messages: replayed,
    turns,
    title: titleToCome ? null : (record?.title ?? null),
    inFlight: [...inFlight.snapshot()],
    runningTurnId: newestUnfinished(turns, unfinished),
  };
}

function announcedMessages(messages: MessageRecord[], unfinished: Set<string>, announced: Map<string, number>): MessageRecord[] {
  const taken = new Map<string, number>();
  return messages.filter((message) => {
    if (!unfinished.has(message.turnId)) return true;
    const count = taken.get(message.turnId) ?? 0;
    if (count >= (announced.get(message.turnId) ?? 0)) return false;
    taken.set(message.turnId, count + 1);
    return true;
  });
}

function newestUnfinished(turns: TurnRecord[], unfinished: Set<string>): string | undefined {
  return turns.findLast((turn) => unfinished.has(turn.id))?.id;
}
