import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The session cookie's name (the page's contract). */
export const SESSION_COOKIE = 'agentd_session';
/** A browser session lasts this long after its login; then `agentd dashboard` again. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Logged-in browsers at once; another login forgets the oldest. */
const MAX_SESSIONS = 32;

const hash = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * The browsers logged in to the page: a random 32-byte cookie value each, kept only as its
 * SHA-256 in memory (a daemon restart logs every browser out), compared in constant time.
 */
export class DashboardSessions {
  private sessions: Array<{ hash: Buffer; expiresAt: number }> = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** A new session; the value goes into the cookie and nowhere else. */
  open(): string {
    const value = randomBytes(32).toString('base64url');
    this.forgetExpired();
    this.sessions.push({ hash: hash(value), expiresAt: this.now() + SESSION_TTL_MS });
    if (this.sessions.length > MAX_SESSIONS) this.sessions.shift();
    return value;
  }

  /**
   * Whether a `Cookie` header carries a live session. Every `agentd_session` in it is tried:
   * cookies are not kept apart by port, so another daemon on loopback may have set one too.
   */
  check(cookieHeader: string | undefined): boolean {
    this.forgetExpired();
    let ok = false;
    for (const value of sessionCookieValues(cookieHeader)) {
      const given = hash(value);
      for (const entry of this.sessions) if (timingSafeEqual(entry.hash, given)) ok = true;
    }
    return ok;
  }

  /** The `Set-Cookie` value for a session (no `Secure`: the page is plain http on loopback). */
  static setCookie(value: string): string {
    return `${SESSION_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/`;
  }

  private forgetExpired(): void {
    const now = this.now();
    this.sessions = this.sessions.filter((entry) => entry.expiresAt > now);
  }
}

/** The values of every `agentd_session` cookie in a `Cookie` header. */
function sessionCookieValues(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(`${SESSION_COOKIE}=`))
    .map((pair) => pair.slice(SESSION_COOKIE.length + 1));
}
