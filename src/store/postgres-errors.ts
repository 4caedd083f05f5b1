import { StoreError } from './store-error.js';

/** The URL as it may be shown: the password replaced, so an error or a log line never carries it. */
export function redactStoreUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    for (const key of ['password', 'sslpassword']) {
      if (parsed.searchParams.has(key)) parsed.searchParams.set(key, '***');
    }
    return parsed.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

/** SQLSTATE classes and codes (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

/** Node's codes for a server that cannot be reached. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOENT', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'ECONNRESET', 'EAI_AGAIN', 'EACCES']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether `error` (or the driver error a StoreError wraps) broke the unique constraint `constraint`. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const failure = error instanceof StoreError ? error.cause : error;
  return codeOf(failure) === UNIQUE_VIOLATION && (failure as { constraint?: unknown }).constraint === constraint;
}

/**
 * Any failure from the server or the driver as a StoreError naming the store (its URL
 * redacted): a server that cannot be reached, refuses the login or lacks the database
 * becomes `unavailable`; a constraint the caller broke `conflict` or `not_found`.
 */
export function toStoreError(error: unknown, where: string): StoreError {
  if (error instanceof StoreError) return error;
  const code = codeOf(error);
  const reason = (error instanceof Error ? error.message : String(error)) || code || 'unknown error';
  const store = `the PostgreSQL store at ${where}`;
  if (code === UNIQUE_VIOLATION) return new StoreError('conflict', `${store} refused a duplicate: ${reason}`, { cause: error });
  if (code === FOREIGN_KEY_VIOLATION) return new StoreError('not_found', `${store} refused a reference to a missing row: ${reason}`, { cause: error });
  // 08: connection exceptions; 28: bad login; 3D000: no such database; 57P0x: server shutting down.
  if (code !== undefined && (UNREACHABLE.has(code) || /^(08|28)/.test(code) || code === '3D000' || code.startsWith('57P0'))) {
    return new StoreError('unavailable', `cannot use ${store}: ${reason}; check store.url (or AGENTD_STORE_URL) and that the server is running`, { cause: error });
  }
  if (/Connection terminated|timeout exceeded when trying to connect/i.test(reason)) {
    return new StoreError('unavailable', `lost ${store}: ${reason}; check that the server is running`, { cause: error });
  }
  return new StoreError('unavailable', `${store} failed: ${reason}`, { cause: error });
}
