import { compactIfNeeded } from './compact-if-needed.js';
import type { LoopParts, TurnSettings } from './loop-context.js';
import type { LoopResult } from './loop-event.js';
import { newLoopState } from './loop-state.js';
import { runLoop } from './run-loop.js';

/**
 * A session's loop, built once with what lives as long as the session (its port, its
 * conversation, its cost, its tool dispatch); each turn brings only its own settings.
 */
export class TurnRunner {
  constructor(private readonly parts: LoopParts) {}

  /** Runs one prompt's turn; the user's message is already committed. */
  run(turn: TurnSettings): Promise<LoopResult> {
    this.parts.cost.startTurn();
    return runLoop({ ...this.parts, turn });
  }

  /** Compacts now (session/compact), outside a turn. */
  compactNow(turn: TurnSettings): Promise<boolean> {
    return compactIfNeeded({ ...this.parts, turn }, newLoopState(), true);
  }
}
