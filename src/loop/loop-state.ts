import type { AssistantMessage } from '../providers/message.js';

/** What the loop remembers across the model requests of one turn. */
export interface LoopState {
  requests: number;
  /** max_tokens recoveries used in this turn. */
  recoveries: number;
  /** A context-overflow error is answered by one compaction and one retry per turn. */
  overflowRetried: boolean;
  lastMessage: AssistantMessage | undefined;
  /** The 80% warning is given once per turn. */
  warned: boolean;
}

export function newLoopState(): LoopState {
  return { requests: 0, recoveries: 0, overflowRetried: false, lastMessage: undefined, warned: false };
}
