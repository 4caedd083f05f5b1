import type { RunOverrides } from '../project/run-overrides.js';
import type { PromptOutcome } from './turn-lifecycle.js';
import type { ReleaseSlot } from './turn-slots.js';

/** How a prompt sent while a turn runs is delivered (`_meta.agentd.delivery`, session/steer, session/followUp). */
export type PromptDelivery = 'steer' | 'followUp';

/** How a prompt is submitted (see Session.submit). */
export interface SubmitOptions {
  /** Joins a running turn (steer: before its next model request; followUp: when the model would stop); without it a busy session refuses the prompt. */
  delivery?: PromptDelivery;
  /** With `steer`: ends the model request in flight. */
  interrupt?: boolean;
  /** The connection that sent the prompt. */
  origin?: string;
  /** A run's own settings for the turn it starts (never stored, see RunOverrides). */
  run?: RunOverrides;
  /** The id of the turn it starts (a queued job's: a job run again finds its turn stored); a new one when absent. */
  turnId?: string;
  /** A turn slot the caller holds already (a queued job's); the session gives it back on every path. */
  slot?: ReleaseSlot;
}

/** What a submitted prompt gets. */
export interface Submission {
  /**
   * Resolves once a steer or follow-up is stored and in its queue, with the queue's length;
   * undefined when it started a turn (or will, once free). Rejects with the store's error
   * when it could not be stored (then nothing was queued).
   */
  queued: Promise<number | undefined>;
  /** Resolves when the turn that takes the prompt ends. */
  outcome: Promise<PromptOutcome>;
}
