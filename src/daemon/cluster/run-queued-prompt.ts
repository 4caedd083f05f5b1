import type { ContentBlock } from '../../../protocol/index.js';
import type { ClientConnection } from '../../server/wire/client-connection.js';
import type { Session } from '../../session/session.js';
import { SessionBusyError, SessionNotFoundError } from '../../session/session-errors.js';
import type { SessionManager } from '../../session/session-manager.js';
import type { ReleaseSlot, TurnSlots } from '../../session/turn-slots.js';

/** A queued prompt as a queue hands it over: its job id becomes the id of the turn it starts. */
export interface QueuedPromptJob {
  id: string;
  sessionId: string;
  prompt: ContentBlock[];
}

/**
 * How a job ended. `ran`: its turn ran here (stopReason null when it failed after its
 * prompt was stored — the turn is recorded, so it is not run again). `skipped`: it must
 * not run (its turn was started before by a daemon that stopped, or its session is gone).
 * A job that throws had nothing stored: the queue may give it to a daemon again.
 */
export type QueuedPromptResult =
  | { outcome: 'ran'; stopReason: string | null; error?: string }
  | { outcome: 'skipped'; reason: string };

/** Runs one job holding `slot`, a turn slot that passes to the job's turn. */
export type RunQueuedPrompt = (job: QueuedPromptJob, slot: ReleaseSlot) => Promise<QueuedPromptResult>;

/**
 * The queues' port into the sessions: the job's prompt runs on its session in this daemon
 * exactly as an interactive prompt does (stored messages, events to the clients following
 * the session), as its own turn after the one running now, if any. The retry policy's
 * half that lives here: the turn's id is the job's, and a job whose turn is stored already
 * (its daemon died after committing the prompt; recovery marks that turn interrupted) is
 * skipped, never run twice. When the turn is over the session is unloaded unless a client has it open.
 */
export function createRunQueuedPrompt(sessions: SessionManager, slots: TurnSlots, clients: ReadonlySet<ClientConnection>): RunQueuedPrompt {
  return async (job, slot) => {
    let session: Session;
    try {
      if ((await sessions.store.listTurns(job.sessionId)).some((turn) => turn.id === job.id)) {
        slot();
        return { outcome: 'skipped', reason: `its turn ${job.id} was started before (by a daemon that stopped); a prompt is never run twice` };
      }
      session = await sessions.open(job.sessionId);
    } catch (error) {
      slot();
      if (error instanceof SessionNotFoundError) return { outcome: 'skipped', reason: error.message };
      throw error;
    }
    try {
      return await runWhenIdle(session, job, slot, slots, sessions);
    } finally {
      if (![...clients].some((client) => client.attached.has(session.id))) await unload(sessions, session.id);
    }
  };
}

/** Submits the job's prompt once the session has no turn, retaking a slot if another prompt won the race for it. */
async function runWhenIdle(session: Session, job: QueuedPromptJob, first: ReleaseSlot, slots: TurnSlots, sessions: SessionManager): Promise<QueuedPromptResult> {
  let slot = first;
  for (;;) {
    await idle(session);
    try {
      const outcome = await session.submit(job.prompt, { turnId: job.id, slot }).outcome;
      return { outcome: 'ran', stopReason: outcome.stopReason };
    } catch (error) {
      if (error instanceof SessionBusyError) {
        slot = await slots.acquire();
        continue;
      }
      // Stored: the turn ran (and failed); otherwise nothing was stored and the job may go again.
      if ((await sessions.store.listTurns(job.sessionId)).some((turn) => turn.id === job.id)) {
        return { outcome: 'ran', stopReason: null, error: (error as Error).message };
      }
      throw error;
    }
  }
}

/** Resolves once the session is idle (at once when it is). */
function idle(session: Session): Promise<void> {
  if (session.state === 'idle') return Promise.resolve();
  return new Promise((resolve) => {
    const stop = session.onStateChange((state) => {
      if (state !== 'idle') return;
      stop();
      resolve();
    });
  });
}

/** Unloads a finished job's session; it stays in the store. */
async function unload(sessions: SessionManager, id: string): Promise<void> {
  try {
    await sessions.close(id);
  } catch {
    // Deleted by a client meanwhile: nothing to unload.
  }
}
