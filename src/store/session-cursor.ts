import { StoreError } from './store-error.js';

/** The keyset position of the last session on a page: `listSessions` resumes after it. */
export interface SessionCursor {
  updatedAt: string;
  id: string;
}

/** base64url of `[updatedAt, id]`: opaque to clients, stable across daemon restarts. */
export function encodeSessionCursor(cursor: SessionCursor): string {
  return Buffer.from(JSON.stringify([cursor.updatedAt, cursor.id]), 'utf8').toString('base64url');
}

export function decodeSessionCursor(cursor: string): SessionCursor {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 2 ||
    typeof decoded[0] !== 'string' ||
    typeof decoded[1] !== 'string' ||
    Number.isNaN(Date.parse(decoded[0]))
  ) {
    throw new StoreError(
      'invalid_argument',
      `invalid session list cursor ${JSON.stringify(cursor)}: pass the nextCursor of a previous list result unchanged, or omit it to start from the newest session`,
    );
  }
  return { updatedAt: decoded[0], id: decoded[1] };
}
