import { emptyUsage, type Usage } from '../providers/usage.js';

/**
 * What every session of one daemon has spent since it started. One instance is created
 * by the daemon and shared by every session's CostTracker, so the totals are
 * daemon-wide without a global.
 */
export class DaemonCostTotals {
  /** USD spent by all sessions. */
  usd = 0;
  /** Tokens used by all sessions, summed field by field. */
  readonly usage: Usage = emptyUsage();
  /** Priced responses counted. */
  responses = 0;

  add(usd: number, usage: Usage): void {
    this.usd += usd;
    addUsage(this.usage, usage);
    this.responses++;
  }
}

/**
 * One session's cost: the one owner of what it has spent, in total and in the turn that
 * runs, feeding the daemon-wide totals as it goes. Created once per session.
 */
export class CostTracker {
  private usd: number;
  private turn = 0;
  /** Tokens used by this session since the tracker was created, summed field by field. */
  readonly sessionUsage: Usage = emptyUsage();
  private readonly totals: DaemonCostTotals;

  /**
   * @param totals the daemon's shared totals
   * @param initialSessionUsd what the session had already cost (a session loaded from the store)
   */
  constructor(totals: DaemonCostTotals, initialSessionUsd = 0) {
    checkUsd(initialSessionUsd, 'initialSessionUsd');
    this.totals = totals;
    this.usd = initialSessionUsd;
  }

  /** Counts one priced response (the loop's responses and compaction's summary calls alike). */
  add(usd: number, usage: Usage): void {
    checkUsd(usd, 'usd');
    this.usd += usd;
    this.turn += usd;
    addUsage(this.sessionUsage, usage);
    this.totals.add(usd, usage);
  }

  /** The session's total as stored, read again because another daemon added to it. */
  resumeFrom(sessionUsd: number): void {
    checkUsd(sessionUsd, 'sessionUsd');
    this.usd = sessionUsd;
  }

  /** A new turn starts: its cost counts from zero. */
  startTurn(): void {
    this.turn = 0;
  }

  /** USD the running (or last) turn has cost. */
  get turnUsd(): number {
    return this.turn;
  }

  /** The session's cost as the store holds it after a turn another daemon ran (the session's one owner then). */
  restore(sessionUsd: number): void {
    checkUsd(sessionUsd, 'sessionUsd');
    this.usd = sessionUsd;
  }

  /** USD this session has cost, including `initialSessionUsd`. */
  get sessionUsd(): number {
    return this.usd;
  }

  /** USD all sessions of this daemon have cost. */
  get daemonUsd(): number {
    return this.totals.usd;
  }
}

function addUsage(into: Usage, usage: Usage): void {
  into.inputTokens += usage.inputTokens;
  into.outputTokens += usage.outputTokens;
  into.cacheReadTokens += usage.cacheReadTokens;
  into.cacheWriteTokens += usage.cacheWriteTokens;
  into.reasoningTokens += usage.reasoningTokens;
}

/** A NaN or negative cost would poison every later total and the budget check. */
function checkUsd(usd: number, name: string): void {
  if (!Number.isFinite(usd) || usd < 0) {
    throw new RangeError(`CostTracker: ${name} must be a finite number of USD >= 0, got ${usd}`);
  }
}
