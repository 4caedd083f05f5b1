import { z } from 'zod';

/**
 * ACP's `_meta`: an open object (or null) any ACP type may carry. ACP reserves it for
 * extensions and says implementations must not assume anything about unknown keys
 * (https://agentclientprotocol.com/protocol/v1/extensibility). agentd keeps all of its
 * own extra fields under `_meta.agentd`, never as new root fields on ACP types.
 */
export const MetaSchema = z
  .looseObject({})
  .nullish()
  .describe('Extension metadata (ACP `_meta`); agentd reads and writes only `_meta.agentd`.');
export type Meta = z.infer<typeof MetaSchema>;

/**
 * A `_meta` whose `agentd` key has a known shape. The outer object stays open so other
 * extensions' keys pass through untouched.
 */
export function agentdMeta<T extends z.ZodType>(agentd: T, description: string) {
  return z
    .looseObject({ agentd: agentd.optional().describe(description) })
    .nullish()
    .describe('Extension metadata (ACP `_meta`); `agentd` holds the agentd extension fields.');
}

/** ACP's SessionId: an opaque string chosen by the agent. */
export const SessionIdSchema = z.string().describe('Opaque session id chosen by the daemon.');
export type SessionId = z.infer<typeof SessionIdSchema>;

/** A JSON object, e.g. tool arguments; arrays and scalars are rejected. */
export const JsonObjectSchema = z
  .record(z.string(), z.unknown())
  .describe('Any JSON object.');
export type JsonObject = z.infer<typeof JsonObjectSchema>;
