/**
 * The session record's `meta`: state upper layers keep with a session. Each key they write
 * or read is typed here; keys this version does not know (written by an older or newer
 * one) are kept as they are, so a record read and written back loses nothing.
 */
import { z } from 'zod';

/** A queue's delivery mode as stored; a value this version does not know reads as unset. */
const storedQueueMode = z.enum(['all', 'oneAtATime']).optional().catch(undefined);

/** What one ancestor's agent allowed, carried on a sub-agent session. */
const agentConstraintSchema = z.object({
  name: z.string(),
  access: z.enum(['full', 'read', 'search']),
  tools: z.array(z.string()).optional(),
});

/** Stands for a stored constraint that cannot be read: an empty tool list allows no tool. */
const unreadableConstraint = (): z.output<typeof agentConstraintSchema> => ({ name: 'unreadable constraint', access: 'search', tools: [] });

/**
 * The ancestors' constraints. Unlike the other keys a malformed value is not dropped (that
 * would lift every constraint): each entry that cannot be read allows nothing — fail closed.
 */
export const AgentConstraintsSchema = z
  .array(agentConstraintSchema.catch(unreadableConstraint))
  .catch(() => [unreadableConstraint()]);

export const SessionMetaSchema = z.looseObject({
  /** Set on a sub-agent's session: the session whose agent tool started it. */
  parentSessionId: z.string().optional(),
  /** Set on a sub-agent's session: the agent tool call that started it. */
  parentToolCallId: z.string().optional(),
  /** Set on a sub-agent's session: what every ancestor's agent allows. */
  agentConstraints: AgentConstraintsSchema.optional(),
  /** A sub-agent's share of its parent's sub-agent budget, USD; read only when `parentSessionId` is set. */
  budgetUsd: z.number().optional(),
  /** The queues' delivery modes set by session/set_config_option; unset ones keep their default. */
  deliveryModes: z.looseObject({ steering: storedQueueMode, followUp: storedQueueMode }).optional(),
  /** The schedule a session was started by, for the record: nothing reads a mode from it. */
  schedule: z
    .looseObject({ id: z.string(), name: z.string(), runId: z.string(), permissionMode: z.string() })
    .optional(),
});

/** A session record's `meta`: the known keys typed, any other key kept as stored. */
export type SessionMeta = z.output<typeof SessionMetaSchema>;

/** The known keys' schemas, by key. */
const KNOWN_KEYS: Readonly<Record<string, z.ZodType>> = SessionMetaSchema.shape;

/** Stored meta is a JSON object; anything else (never written by agentd) reads as empty. */
const storedObject = z.record(z.string(), z.unknown()).catch(() => ({}));

/**
 * Reads a stored `meta`. A known key whose value has the wrong shape is dropped (the row
 * itself is left as it is until the meta is next written), so one bad value never stops a
 * session from loading; unknown keys are kept untouched.
 */
export function readSessionMeta(stored: unknown): SessionMeta {
  const entries = Object.entries(storedObject.parse(stored));
  const readable = entries.filter(([key, value]) => !Object.hasOwn(KNOWN_KEYS, key) || KNOWN_KEYS[key]!.safeParse(value).success);
  // Every known key left was just read by its own schema: the whole cannot fail.
  return SessionMetaSchema.parse(Object.fromEntries(readable));
}
