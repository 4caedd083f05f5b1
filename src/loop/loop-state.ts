import type { AssistantMessage } from '../providers/message.js';
import type { Usage } from '../providers/usage.js';

/** What the loop remembers across the model requests of one turn. */
export interface LoopState {
  requests: number;
  /** max_tokens recoveries used in this turn. */
  recoveries: number;
  /** A context-overflow error is answered by one compaction and one retry per turn. */
  overflowRetried: boolean;
  /** USD spent in this turn. */
  turnUsd: number;
  lastMessage: AssistantMessage | undefined;
  /** The last response's usage and the history length it covered, for the context estimate. */
  usageMark: { usage: Usage; historyLength: number } | undefined;
  /** The 80% warning is given once per turn. */
  warned: boolean;
}

export function newLoopState(): LoopState {
  return { requests: 0, recoveries: 0, overflowRetried: false, turnUsd: 0, lastMessage: undefined, usageMark: undefined, warned: false };
}
