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

/** Any message's `_meta.agentd`, not yet read by a known shape. */
const CarrierSchema = z.looseObject({ _meta: z.looseObject({ agentd: z.unknown() }).nullish() });

/**
 * The `_meta.agentd` of `message` read by `schema`: undefined when the message has none,
 * or when it is not of that shape (a peer's malformed extension is ignored, not trusted).
 * For messages nothing validated yet: a client's answers, or params before dispatch.
 */
export function readAgentdMeta<T extends z.ZodType>(schema: T, message: unknown): z.output<T> | undefined {
  const carrier = CarrierSchema.safeParse(message);
  const agentd = carrier.success ? carrier.data._meta?.agentd : undefined;
  if (agentd === undefined) return undefined;
  const read = schema.safeParse(agentd);
  return read.success ? read.data : undefined;
}

/** ACP's SessionId: an opaque string chosen by the agent. */
export const SessionIdSchema = z.string().describe('Opaque session id chosen by the daemon.');
export type SessionId = z.infer<typeof SessionIdSchema>;

/** A JSON object, e.g. tool arguments; arrays and scalars are rejected. */
export const JsonObjectSchema = z
  .record(z.string(), z.unknown())
  .describe('Any JSON object.');
export type JsonObject = z.infer<typeof JsonObjectSchema>;
