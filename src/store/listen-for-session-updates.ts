import pg from 'pg';
import { redactStoreUrl } from './postgres-errors.js';
import { SESSION_UPDATES_CHANNEL } from './postgres-session-updates.js';

export interface SessionUpdateWakeUpOptions {
  /** Shown in pg_stat_activity, so an operator can tell this connection from the pool's. */
  applicationName: string;
  /** A NOTIFY said the session has updates up to `seq`, appended by the daemon `origin`. */
  onWakeUp(sessionId: string, seq: number, origin: string): void;
  /** LISTEN is in place (again): whatever was NOTIFYed while it was not is in the table, not in a wake-up. */
  onListening(): void;
  log(line: string): void;
}

/** The LISTEN connection; close() ends it for good. */
export interface SessionUpdateWakeUps {
  /** Resolves once the first attempt to LISTEN has succeeded or failed (a failure retries in the background). */
  readonly started: Promise<void>;
  close(): Promise<void>;
}

/** The first retry after a lost connection, doubling up to the last. */
const RETRY_MS = [100, 200, 500, 1_000, 2_000];

/**
 * LISTENs for session updates on a client of its own (a pooled client could be handed to
 * a query and LISTEN nothing). Wake-ups are hints: when the connection drops it connects
 * again, LISTENs again and says so through onListening, and the caller reads what it missed
 * from the table.
 */
export function listenForSessionUpdates(url: string, options: SessionUpdateWakeUpOptions): SessionUpdateWakeUps {
  const where = redactStoreUrl(url);
  let closed = false;
  let failures = 0;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const current = new pg.Client({ connectionString: url, application_name: options.applicationName });
    client = current;
    let lost = false;
    const onLost = (error?: Error): void => {
      if (lost) return;
      lost = true;
      current.removeAllListeners('notification');
      void current.end().catch(() => undefined);
      if (closed) return;
      const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]!;
      failures++;
      options.log(`session updates: lost the LISTEN connection to ${where} (${error?.message ?? 'closed'}); connecting again in ${delay} ms`);
      retry = setTimeout(() => void connect(), delay);
    };
    current.on('error', onLost);
    current.on('end', () => onLost());
    current.on('notification', (message) => {
      if (message.channel !== SESSION_UPDATES_CHANNEL || !message.payload) return;
      // From the end: the daemon id and the seq have no spaces, whatever the session id holds.
      const parts = message.payload.split(' ');
      const origin = parts.pop();
      const seq = Number(parts.pop());
      if (origin && parts.length > 0 && Number.isSafeInteger(seq)) options.onWakeUp(parts.join(' '), seq, origin);
    });
    try {
      await current.connect();
      await current.query(`LISTEN ${SESSION_UPDATES_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (closed || lost) return;
    if (failures > 0) options.log(`session updates: listening again on ${where}`);
    failures = 0;
    options.onListening();
  };

  const started = connect();
  return {
    started,
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
