import type { z } from 'zod';

/**
 * Who sends a message. `both` is for protocol-level notifications either side may send
 * about its own requests (`$/cancel_request`, `$/cancelRequest`).
 */
export type MethodDirection = 'client-to-daemon' | 'daemon-to-client' | 'both';

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
  /**
   * Name of the typed client's convenience method for this wire method, following the
   * rule of one name for one concept across protocol, server and clients (`session/steer` → `steer`, `session/new` → `newSession`).
   * For daemon → client methods it names the handler a client registers.
   */
  clientMethod: string;
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

/**
 * Define a descriptor with its schemas' types kept. The `const` type parameter also keeps
 * `method`, `clientMethod`, `direction` and `kind` as literal types, which is what lets
 * methods.ts derive `MethodName`, `ParamsOf` and the client's method names from the table.
 */
export function defineMethod<const D extends MethodDescriptor>(descriptor: D): D {
  return descriptor;
}
