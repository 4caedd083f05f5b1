import { describe, expect, it } from 'vitest';
import { budgetExceededMessage, checkStopConditions, formatUsd } from '../../src/loop/stop-conditions.js';

const open = new AbortController().signal;

describe('checkStopConditions', () => {
  it('lets the loop go on while nothing is reached', () => {
    expect(checkStopConditions({ signal: open, requestsMade: 3, maxTurns: 10, sessionUsd: 0.5, budgetUsd: 1 })).toBeUndefined();
    expect(checkStopConditions({ signal: open, requestsMade: 0, maxTurns: 1, sessionUsd: 99 })).toBeUndefined();
  });

  it('stops at the request limit', () => {
    const decision = checkStopConditions({ signal: open, requestsMade: 10, maxTurns: 10, sessionUsd: 0 });
    expect(decision?.stop).toBe('max_turn_requests');
    expect(decision?.message).toContain('maxTurns = 10');
  });

  it('stops when the session cost reaches the budget', () => {
    expect(checkStopConditions({ signal: open, requestsMade: 1, maxTurns: 10, sessionUsd: 2, budgetUsd: 2 })).toEqual({
      stop: 'budget_exceeded',
      message: budgetExceededMessage(2, 2),
    });
    expect(checkStopConditions({ signal: open, requestsMade: 1, maxTurns: 10, sessionUsd: 1.99, budgetUsd: 2 })).toBeUndefined();
  });

  it('puts cancellation first, then the budget, then the request limit', () => {
    const controller = new AbortController();
    controller.abort();
    expect(checkStopConditions({ signal: controller.signal, requestsMade: 10, maxTurns: 10, sessionUsd: 5, budgetUsd: 1 })?.stop).toBe('cancelled');
    expect(checkStopConditions({ signal: open, requestsMade: 10, maxTurns: 10, sessionUsd: 5, budgetUsd: 1 })?.stop).toBe('budget_exceeded');
  });
});

describe('budgetExceededMessage', () => {
  it('says what was spent, the budget and how to go on', () => {
    expect(budgetExceededMessage(1.234, 1)).toBe(
      'This session has cost $1.23, which reaches its budget of $1.00 (budgetUsd), so no further model requests were made. ' +
        'Raise budgetUsd in config.json, or start a new session, to continue.',
    );
    expect(formatUsd(0.01234)).toBe('$0.0123');
  });
});
