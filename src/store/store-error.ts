/**
 * What kind of failure a store call hit, so the server can map it to a JSON-RPC error
 * (e.g. `not_found` → "resource not found") without matching message text.
 */
export type StoreErrorCode =
  /** The session or turn named by the caller does not exist. */
  | 'not_found'
  /** The id is already taken, or the turn already ended. */
  | 'conflict'
  /** An argument is malformed (bad cursor, limit, content that is not JSON). */
  | 'invalid_argument'
  /** The database file cannot be used by this version of agentd. */
  | 'unsupported_database'
  /** The database server cannot be reached or refused the connection (PostgreSQL). */
  | 'unavailable'
  /** Another daemon runs the session (holds its lease); this one lost its lease or never had it. */
  | 'fenced';

/** Every error the store throws on purpose; the message says what was wrong and the fix. */
export class StoreError extends Error {
  override readonly name = 'StoreError';

  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
