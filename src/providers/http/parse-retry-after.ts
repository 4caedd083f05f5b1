/**
 * The delay a server asked for before the next attempt, in milliseconds, or undefined
 * when it asked for none (or sent something unreadable).
 *
 * Reads `retry-after-ms` first (OpenAI and Azure send it, and it is more precise), then
 * `retry-after` as delta-seconds or as an HTTP-date (RFC 9110 §10.2.3). This is the order
 * the official OpenAI and Anthropic SDKs use. A date in the past means "now" (0).
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null) {
    const value = Number.parseFloat(milliseconds);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter === undefined || retryAfter === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number.parseFloat(retryAfter) * 1000);
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
