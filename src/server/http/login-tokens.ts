import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a login address works. */
export const LOGIN_TOKEN_TTL_MS = 10 * 60 * 1000;
/** Tokens waiting at once; minting more forgets the oldest (each needs a client of the daemon to ask). */
const MAX_PENDING_TOKENS = 32;

const hash = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * One-time login tokens: 32 random bytes, valid for 10 minutes, redeemed once. Only their
 * SHA-256 is kept, in memory, and every kept hash is compared in constant time, so neither
 * the daemon's memory nor the time a wrong guess takes tells anything about a valid token.
 */
export class LoginTokens {
  private pending: Array<{ hash: Buffer; expiresAt: number }> = [];

  constructor(private readonly now: () => number = Date.now) {}

  mint(): { token: string; expiresAt: number } {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = this.now() + LOGIN_TOKEN_TTL_MS;
    this.forgetExpired();
    this.pending.push({ hash: hash(token), expiresAt });
    if (this.pending.length > MAX_PENDING_TOKENS) this.pending.shift();
    return { token, expiresAt };
  }

  /** True once for a minted, unexpired token; it is forgotten either way. */
  redeem(token: string): boolean {
    this.forgetExpired();
    const given = hash(token);
    let found = -1;
    // Every entry compared, found or not: the time taken does not depend on which matched.
    this.pending.forEach((entry, index) => {
      if (timingSafeEqual(entry.hash, given)) found = index;
    });
    if (found < 0) return false;
    this.pending.splice(found, 1);
    return true;
  }

  private forgetExpired(): void {
    const now = this.now();
    this.pending = this.pending.filter((entry) => entry.expiresAt > now);
  }
}
