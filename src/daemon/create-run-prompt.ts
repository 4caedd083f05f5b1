import type { RunPrompt } from '../scheduler/run-prompt-port.js';
import { describeCwdProblem } from '../scheduler/check-schedule.js';
import type { SessionManager } from '../session/session-manager.js';
import type { ClientConnection } from '../server/wire/client-connection.js';

/**
 * The scheduler's port into the sessions: a new session in the schedule's cwd with its
 * agent and model, prompted with no client behind it. The run's budget and permission mode
 * are held by its turn only, never stored with the session: whoever goes on with the
 * session later (any client, after a reload or a restart) runs in the project's mode and is
 * asked. Aborting the signal stops the turn like `session/abort`. When the turn is over the
 * session is unloaded unless a client has it open; it stays in the store, loadable like any other.
 */
export function createRunPrompt(
  sessions: SessionManager,
  clients: ReadonlySet<ClientConnection>,
  /** Ids of sessions whose scheduled run is going; the daemon's asker asks nobody for them. */
  headless: Set<string>,
): RunPrompt {
  return async (request) => {
    const cwdProblem = describeCwdProblem(request.cwd);
    if (cwdProblem) throw new Error(`cwd: ${cwdProblem}`);
    const session = await sessions.create({
      cwd: request.cwd,
      // Where the session came from, for the record; nothing reads a mode from it.
      meta: { schedule: { id: request.scheduleId, name: request.title, runId: request.runId, permissionMode: request.permissionMode } },
    });
    try {
      if (request.agent !== undefined) await session.setMode(request.agent);
      if (request.model !== undefined) await session.setModel(request.model);
    } catch (error) {
      // Nothing ran: the empty session would only clutter the list.
      await sessions.delete(session.id);
      throw error;
    }
    const stop = (): void => void session.abort();
    headless.add(session.id);
    const run = { permissionMode: request.permissionMode, ...(request.budgetUsd !== undefined ? { budgetUsd: request.budgetUsd } : {}) };
    const done = session.submit([{ type: 'text', text: request.prompt }], { run }).outcome.then(
      (outcome) => ({ stopReason: outcome.stopReason, costUsd: session.record.totalCostUsd }),
      (error: Error) => ({ stopReason: null, costUsd: session.record.totalCostUsd, error: error.message }),
    );
    // After the prompt has started its turn, so an abort that came first still stops it.
    if (request.signal.aborted) stop();
    else request.signal.addEventListener('abort', stop, { once: true });
    return {
      sessionId: session.id,
      done: done.then(async (result) => {
        request.signal.removeEventListener('abort', stop);
        headless.delete(session.id);
        if (![...clients].some((client) => client.attached.has(session.id))) await unload(sessions, session.id);
        return result;
      }),
    };
  };
}

/** Unloads a finished run's session; it stays in the store. */
async function unload(sessions: SessionManager, id: string): Promise<void> {
  try {
    await sessions.close(id);
  } catch {
    // Deleted by a client meanwhile: nothing to unload.
  }
}
