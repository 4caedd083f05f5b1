/** Why the loop must not make another model request. */
export type LoopStop = 'cancelled' | 'max_turn_requests' | 'budget_exceeded';

export interface StopConditionInput {
  /** The turn's cancel signal (session/cancel, session/abort). */
  signal: AbortSignal;
  /** Model requests already made in this turn. */
  requestsMade: number;
  /** Most model requests allowed in one turn. */
  maxTurns: number;
  /** What the session has cost so far, USD. */
  sessionUsd: number;
  /** The config's `budgetUsd`; no budget when undefined. */
  budgetUsd?: number | undefined;
}

export interface StopDecision {
  stop: LoopStop;
  /** What to tell the user. */
  message: string;
}

/**
 * Checked before every model request. Cancellation wins (the user asked), then the
 * budget (spending more is the costlier mistake), then the request limit.
 */
export function checkStopConditions(input: StopConditionInput): StopDecision | undefined {
  if (input.signal.aborted) return { stop: 'cancelled', message: 'The turn was cancelled.' };
  if (input.budgetUsd !== undefined && input.sessionUsd >= input.budgetUsd) {
    return { stop: 'budget_exceeded', message: budgetExceededMessage(input.sessionUsd, input.budgetUsd) };
  }
  if (input.requestsMade >= input.maxTurns) {
    return {
      stop: 'max_turn_requests',
      message: `The turn stopped after ${input.requestsMade} model requests, the limit (maxTurns = ${input.maxTurns}). Send another prompt to go on, or raise maxTurns in config.json.`,
    };
  }
  return undefined;
}

/** The notice shown when a session reaches its budget. */
export function budgetExceededMessage(sessionUsd: number, budgetUsd: number): string {
  return (
    `This session has cost ${formatUsd(sessionUsd)}, which reaches its budget of ${formatUsd(budgetUsd)} (budgetUsd), ` +
    'so no further model requests were made. Raise budgetUsd in config.json, or start a new session, to continue.'
  );
}

/** Cents for amounts of a dollar or more; four decimals below, where cents would round a real cost to $0.00. */
export function formatUsd(usd: number): string {
  return `$${usd >= 1 ? usd.toFixed(2) : usd.toFixed(4)}`;
}
