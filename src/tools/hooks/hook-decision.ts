/** A tool call as hooks see it: the loop's call with arguments already validated. */
export interface HookedCall {
  /** The call's id, as the model sent it. */
  id: string;
  /** Tool name. */
  name: string;
  /** The arguments the tool would run with. */
  args: Record<string, unknown>;
}

/**
 * What before-hooks decided: run as is, do not run (the model gets `reason`), or run
 * with other arguments (which the loop validates again). The loop's dispatch uses it too.
 */
export type HookDecision =
  | { decision: 'allow' }
  | { decision: 'block'; reason: string }
  | { decision: 'rewrite'; args: Record<string, unknown> };
