/** What `_meta.agentd` of a result holds, as the method table types it. */
type AgentdOf<R> = R extends { _meta?: infer M } ? (NonNullable<M> extends { agentd?: infer A } ? NonNullable<A> : never) : never;

/**
 * A result's `_meta.agentd`, agentd's extension fields, typed by the method table's schema
 * of that result, for assertions on them; throws when the result has none, so a test
 * names what it expected rather than reading `undefined`.
 */
export function agentdMeta<R extends { _meta?: unknown }>(result: R): AgentdOf<R> {
  const agentd = (result._meta as { agentd?: unknown } | null | undefined)?.agentd;
  if (agentd === undefined) throw new Error(`the result has no _meta.agentd: ${JSON.stringify(result)}`);
  return agentd as AgentdOf<R>;
}
