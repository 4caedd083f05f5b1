/**
 * The persistence contract: sessions, their turns and their committed messages.
 * `sqlite-store.ts` implements it on better-sqlite3; callers depend only on this file.
 * Every method is asynchronous, so a store on a network database fits behind it; a caller
 * awaits a write before it announces what was written (a committed message is stored
 * before the event announcing it goes out).
 *
 * Several daemons may share one database (PostgreSQL): a session with a running turn is
 * run by the daemon holding its lease (`cluster`, see cluster-store.ts). The writes for a
 * session (appendMessage, startTurn, endTurn, updateSession, addSessionCost,
 * deleteSession, pendingPrompts.add) are fenced: they fail with StoreError `fenced` when another daemon holds
 * the session's lease, or when this store claimed it and has lost it since.
 */
import type { ClusterStore } from './cluster-store.js';
import type { PendingPromptStore } from './pending-prompt-store.js';
import type { ScheduleStore } from './schedule-store.js';
import type { SessionMeta } from './session-meta.js';

/**
 * Token counts of one response as stored (the provider layer's Usage has this shape;
 * the store sits below it and keeps its own name for it).
 */
export interface StoredUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
}

/** One conversation, as listed by `session/list` and restored by `session/load`. */
export interface SessionRecord {
  /** Session id chosen by the caller (the ACP `sessionId`). */
  id: string;
  /** Absolute working directory the session runs in. */
  cwd: string;
  /** Extra directories the session may read and write besides `cwd`. */
  additionalDirectories: string[];
  /** Human-readable title; null until one is set or generated. */
  title: string | null;
  /** Current model as `provider/model`; null means "the configured default". */
  model: string | null;
  /** Current agent mode (e.g. `build`, `plan`, `explore`). */
  mode: string;
  /** When the session was created, ISO 8601 UTC. */
  createdAt: string;
  /** When the session last changed (a message, a setting), ISO 8601 UTC. */
  updatedAt: string;
  /** Sum of `costUsd` over every message appended to the session. */
  totalCostUsd: number;
  /** State upper layers keep with the session (see session-meta.ts); stored as JSON. */
  meta: SessionMeta;
}

/** Who produced a message, matching the unified provider model's roles. */
export type MessageRole = 'user' | 'assistant' | 'tool';

/** `interrupted` marks an assistant message cut short (cancel, abort, crash recovery). */
export type MessageStatus = 'complete' | 'interrupted';

/** A message to append; the store assigns `seq`, `createdAt` and (unless given) `id`. */
export interface NewMessage {
  /** Message id; a random UUID when omitted. Must be unique across the database. */
  id?: string;
  /** The session the message belongs to; it must exist. */
  sessionId: string;
  /** The turn that produced the message. */
  turnId: string;
  role: MessageRole;
  /** Content blocks as in `src/providers/message.ts`, stored as JSON. */
  content: unknown[];
  /** Defaults to `complete`. */
  status?: MessageStatus;
  /** The `provider/model` that produced an assistant message; null otherwise. */
  model?: string | null;
  /** Token usage of the response that produced the message, when known. */
  usage?: StoredUsage | null;
  /** Cost of that response in USD; added to the session's `totalCostUsd`. */
  costUsd?: number | null;
  /** Free-form data owned by upper layers; stored as JSON. */
  meta?: Record<string, unknown> | null;
  /**
   * The pending prompt (see pending-prompt-store.ts) this message delivers: removed in the
   * same transaction, so it is delivered once. The append fails `conflict` when it is no
   * longer pending or another daemon claimed it to run elsewhere.
   */
  pendingPromptId?: string;
}

/** A stored message: every optional field of `NewMessage` resolved (absent → null). */
export interface MessageRecord extends Required<Omit<NewMessage, 'pendingPromptId'>> {
  /** Position in the session, 1-based, gap-free, in append order. */
  seq: number;
  /** Message id (given or generated). */
  id: string;
  status: MessageStatus;
  /** When the message was appended, ISO 8601 UTC. */
  createdAt: string;
}

/**
 * `running` while the loop works on it; the others are the turn's final stop reason.
 * `interrupted` is only set by `recoverInterruptedTurns` (the daemon died mid-turn).
 */
export type TurnStatus =
  | 'running'
  | 'end_turn'
  | 'max_tokens'
  | 'max_turn_requests'
  | 'refusal'
  | 'cancelled'
  | 'error'
  | 'interrupted';

/** One prompt's worth of work: from `session/prompt` to its stop reason. */
export interface TurnRecord {
  /** Turn id chosen by the caller. */
  id: string;
  sessionId: string;
  status: TurnStatus;
  /** ISO 8601 UTC. */
  startedAt: string;
  /** ISO 8601 UTC; null while running. */
  endedAt: string | null;
  /** What went wrong, for `error` (and the recovery note for `interrupted`). */
  error: string | null;
}

/** Fields accepted by `createSession`. */
export interface NewSession {
  id: string;
  cwd: string;
  /** Defaults to `[]`. */
  additionalDirectories?: string[];
  /** Defaults to null. */
  title?: string | null;
  /** Defaults to null. */
  model?: string | null;
  /** Defaults to `DEFAULT_SESSION_MODE`. */
  mode?: string;
  /** Defaults to `{}`. */
  meta?: SessionMeta;
}

/** Filters and paging for `listSessions`. */
export interface ListSessionsQuery {
  /** Only sessions whose `cwd` is exactly this path. */
  cwd?: string;
  /** `nextCursor` of the previous page, passed back unchanged. */
  cursor?: string;
  /** Page size: default 50, values above 200 are lowered to 200. */
  limit?: number;
}

/**
 * Which sessions a search keeps besides its cwd and title filters: those listed in `ids`,
 * and, with `stored`, those not in its `exceptIds` (the live ones, whose state the caller
 * knows) whose last turn failed (`lastTurnFailed: true`), did not (`false`) or either.
 */
export interface SessionSelection {
  ids: string[];
  stored?: { exceptIds: string[]; lastTurnFailed?: boolean };
}

/** Filters and paging for `searchSessions`. */
export interface SessionSearch {
  /** Only sessions whose `cwd` is exactly this path. */
  cwd?: string;
  /** Only sessions whose title contains this text (case-insensitive for ASCII letters). */
  titleContains?: string;
  /** Without it every session matches. */
  select?: SessionSelection;
  /** `nextCursor` of the previous page, passed back unchanged (the same cursor as listSessions'). */
  cursor?: string;
  /** Page size, 1 to 500; default 100. */
  limit?: number;
}

/** A session found by a search, with its last turn (null before the first). */
export interface FoundSession {
  record: SessionRecord;
  lastTurn: TurnRecord | null;
}

export interface SessionSearchPage {
  sessions: FoundSession[];
  nextCursor: string | null;
  /** Matches over all pages (the cursor left out). */
  total: number;
}

/** Which stored spending `costTotals` sums: whole UTC days, both ends included. */
export interface CostQuery {
  /** First day, `YYYY-MM-DD`. */
  sinceDay: string;
  /** Last day, `YYYY-MM-DD`. */
  untilDay: string;
  /** Only sessions whose `cwd` is exactly this path. */
  cwd?: string;
}

/** What one model cost on one UTC day. */
export interface DayModelCost {
  day: string;
  model: string;
  costUsd: number;
  requests: number;
  inputTokens: number;
  outputTokens: number;
}

/** The mode a session starts in when `createSession` gets none (a built-in agent). */
export const DEFAULT_SESSION_MODE = 'build';

export interface Store {
  /** Inserts a session; fails when the id is taken. */
  createSession(input: NewSession): Promise<SessionRecord>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  /** Newest first by updatedAt; cursor is opaque (encode updatedAt+id), limit default 50 max 200. */
  listSessions(query: ListSessionsQuery): Promise<{ sessions: SessionRecord[]; nextCursor: string | null }>;
  /** Sessions of every project filtered by cwd, title and a selection, newest activity first, with their last turns and the total. */
  searchSessions(search: SessionSearch): Promise<SessionSearchPage>;
  /** The session's newest turn, if it has one. */
  lastTurn(sessionId: string): Promise<TurnRecord | undefined>;
  /** Replaces the given fields (meta is replaced, not merged) and bumps updatedAt. */
  updateSession(
    id: string,
    patch: Partial<Pick<SessionRecord, 'title' | 'model' | 'mode' | 'meta' | 'additionalDirectories'>>,
  ): Promise<SessionRecord>;
  /** Adds a cost spent for the session outside its messages (an MCP server's sampling) to its total; bumps updatedAt. */
  addSessionCost(id: string, usd: number): Promise<void>;
  /** Deletes the session, its messages and turns. Returns false when it did not exist. */
  deleteSession(id: string): Promise<boolean>;
  /** Records a new `running` turn; the session must exist and the id be unused. */
  startTurn(sessionId: string, turnId: string): Promise<TurnRecord>;
  /** Sets the final status of a running turn; fails for an unknown or already ended turn. */
  endTurn(turnId: string, status: Exclude<TurnStatus, 'running'>, error?: string | null): Promise<void>;
  /** The session's turns, oldest first. */
  listTurns(sessionId: string): Promise<TurnRecord[]>;
  /**
   * One transaction: insert the message, add its cost to the session total, bump session updatedAt.
   * The record returned holds the caller's own content, usage and meta objects (not a copy read back).
   */
  appendMessage(message: NewMessage): Promise<MessageRecord>;
  /**
   * Spending per UTC day and model: every stored message a model produced (assistant
   * answers and compaction summaries), by the day it was stored; sorted by day then model.
   */
  costTotals(query: CostQuery): Promise<DayModelCost[]>;
  /** The session's messages in `seq` order. */
  listMessages(sessionId: string): Promise<MessageRecord[]>;
  /**
   * At start-up: every turn still 'running' whose owner is gone (the daemon died mid-turn)
   * becomes 'interrupted'; returns them. On PostgreSQL that is a turn of a session no daemon
   * holds a live lease on (another daemon's running turns go on); on SQLite, whose data
   * directory one daemon holds at a time, every running turn, and other daemons' leases are released and their registrations forgotten.
   */
  recoverInterruptedTurns(): Promise<TurnRecord[]>;
  /** Schedules added over the protocol and every schedule's runs (same database). */
  readonly schedules: ScheduleStore;
  /** The daemons sharing the database and the sessions' leases (the same database). */
  readonly cluster: ClusterStore;
  /** Steers and follow-ups waiting for a running turn (the same database). */
  readonly pendingPrompts: PendingPromptStore;
  /** Closes the database; the store must not be used afterwards. */
  close(): Promise<void>;
}
