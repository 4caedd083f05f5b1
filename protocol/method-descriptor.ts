import type { z } from 'zod';

/** Who sends a message. */
export type MethodDirection = 'client-to-daemon' | 'daemon-to-client';

/**
 * One JSON-RPC method of the agentd protocol. `methods.ts` holds the single table of
 * these; dispatch, the TypeScript client, schema.json and PROTOCOL.md derive from it.
 */
export interface MethodDescriptor<
  P extends z.ZodType = z.ZodType,
  R extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /** Wire name, e.g. `session/prompt`. */
  method: string;
  direction: MethodDirection;
  /** A notification has no `result` and gets no response. */
  kind: 'request' | 'notification';
  /** Params schema; validation errors become -32602 naming the JSON path. */
  params: P;
  /** Result schema; undefined for notifications. */
  result: R;
  /** One line for PROTOCOL.md and the client's doc comment. */
  summary: string;
  /** Part of ACP v1 (true) or an agentd extension (false). */
  acp: boolean;
  /** The issue-level feature this method belongs to, for grouping in PROTOCOL.md. */
  feature: string;
  /** Named error codes (from jsonrpc.ts) a caller should expect. */
  errors: readonly number[];
  /** One example exchange for PROTOCOL.md. */
  example: { params: unknown; result?: unknown };
}

/** Define a descriptor with its schemas' types kept. */
export function defineMethod<P extends z.ZodType, R extends z.ZodType | undefined>(
  descriptor: MethodDescriptor<P, R>,
): MethodDescriptor<P, R> {
  return descriptor;
}
