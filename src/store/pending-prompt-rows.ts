import type { NewPendingPrompt, PendingPrompt } from './pending-prompt-store.js';
import { StoreError } from './store-error.js';
import { requireText, toJsonColumn } from './store-rows.js';

/** A row of `pending_prompts` as either database returns it (PostgreSQL's BIGINT as text). */
export interface PendingPromptRow {
  ord: number | string;
  id: string;
  session_id: string;
  queue: 'steering' | 'followUp';
  content: string;
  origin: string | null;
  daemon_id: string;
  claimed_by: string | null;
  created_at: string;
}

export function toPendingPrompt(row: PendingPromptRow): PendingPrompt {
  return {
    id: row.id,
    sessionId: row.session_id,
    queue: row.queue,
    content: JSON.parse(row.content) as unknown[],
    origin: row.origin,
    daemonId: row.daemon_id,
    claimedBy: row.claimed_by,
    order: Number(row.ord),
    createdAt: row.created_at,
  };
}

/** Checks a prompt to add and returns its content as JSON text. */
export function pendingPromptContent(prompt: NewPendingPrompt): string {
  requireText(prompt.id, 'pending prompt id');
  if (prompt.queue !== 'steering' && prompt.queue !== 'followUp') {
    throw new StoreError('invalid_argument', `pending prompt queue must be "steering" or "followUp", got ${JSON.stringify(prompt.queue)}`);
  }
  if (!Array.isArray(prompt.content)) throw new StoreError('invalid_argument', 'pending prompt content must be an array of content blocks');
  return toJsonColumn(prompt.content, 'pending prompt content');
}

/** The daemon a store adds prompts for: the one it registered or claimed a session as. */
export function queuingDaemon(daemonId: string | null): string {
  if (daemonId === null) {
    throw new StoreError('invalid_argument', "this store's daemon is not registered, so a queued prompt could not name it; register the daemon (cluster.registerDaemon) first");
  }
  return daemonId;
}

/** The append of a message that delivers a pending prompt found it gone: another daemon rescued it, or it was dropped. */
export function pendingPromptGone(id: string): StoreError {
  return new StoreError(
    'conflict',
    `queued prompt ${JSON.stringify(id)} is no longer pending (another daemon took it over as its own turn, or it was dropped), so it is not delivered here; it runs once, there`,
  );
}
