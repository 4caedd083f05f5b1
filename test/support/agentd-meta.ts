/**
 * A result's `_meta.agentd`, agentd's extension fields, for assertions on them. The method
 * table types most of them as `unknown` (an open extension object), so a test reads them
 * through this one loose door rather than a cast at every assertion.
 */
export function agentdMeta(result: { _meta?: Record<string, unknown> | null | undefined }): any {
  return result._meta?.agentd;
}
