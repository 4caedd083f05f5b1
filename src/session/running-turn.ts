import { randomUUID } from 'node:crypto';
import type { RunOverrides } from '../project/run-overrides.js';
import type { PermissionMode } from '../tools/permissions/permission-modes.js';

/**
 * One turn in progress: who sent it, a run's own settings for it, and what stops it —
 * the whole turn (session/cancel), or only the model request in flight (a steer's interrupt).
 */
export class RunningTurn {
  private readonly controller = new AbortController();
  private request = new AbortController();

  constructor(
    /** The connection that sent the prompt, if any. */
    readonly origin: string | undefined,
    /** A run's own settings, held by this turn only (never stored, see RunOverrides). */
    readonly run: RunOverrides | undefined,
    /** The mode this turn holds over its project's: its run's own, or the daemon's `--permission-mode`. */
    readonly permissionMode: PermissionMode | undefined,
    /** The turn's id: a queued job's own (see SubmitOptions.turnId), else a new one. */
    readonly id: string = randomUUID(),
  ) {}

  /** Aborts when the whole turn is cancelled. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The signal for the next model request: an interrupt ends the request in flight, not the turn. */
  requestSignal(): AbortSignal {
    if (this.request.signal.aborted) this.request = new AbortController();
    return AbortSignal.any([this.controller.signal, this.request.signal]);
  }

  interrupt(): void {
    this.request.abort(new Error('interrupted by a steer'));
  }

  cancel(): void {
    this.controller.abort(new Error('cancelled'));
  }
}
