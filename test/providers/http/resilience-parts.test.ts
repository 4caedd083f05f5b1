import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../../src/providers/http/backoff-delay.js';
import { CircuitBreaker } from '../../../src/providers/http/circuit-breaker.js';
import { createIdleWatchdog } from '../../../src/providers/http/idle-watchdog.js';
import { isSemanticEvent } from '../../../src/providers/http/is-semantic-event.js';
import { parseRetryAfter } from '../../../src/providers/http/parse-retry-after.js';
import { ProviderError } from '../../../src/providers/provider-error.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads retry-after-ms first, then seconds, then an HTTP date', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250.4', 'retry-after': '9' }), now)).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }), now)).toBe(1500);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }), now)).toBe(7000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }), now)).toBe(0);
  });
  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '-5' }), now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('grows exponentially under full jitter, capped', () => {
    const top = () => 0.999999;
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelay({ attempt, maxDelayMs: 10_000, random: top }))).toEqual([999, 1999, 3999, 7999, 9999]);
    expect(backoffDelay({ attempt: 3, maxDelayMs: 10_000, random: () => 0 })).toBe(0);
    expect(backoffDelay({ attempt: 2, baseMs: 100, maxDelayMs: 10_000, random: () => 0.5 })).toBe(100);
  });
  it('honours the vendor delay, capped by the maximum', () => {
    expect(backoffDelay({ attempt: 1, maxDelayMs: 60_000, retryAfterMs: 12_000 })).toBe(12_000);
    expect(backoffDelay({ attempt: 1, maxDelayMs: 5_000, retryAfterMs: 12_000 })).toBe(5_000);
  });
});

describe('CircuitBreaker', () => {
  it('opens after 5 consecutive failures, half-opens after 30 s, closes on success', () => {
    let now = 0;
    const breaker = new CircuitBreaker({ now: () => now });
    for (let i = 0; i < 4; i += 1) breaker.recordFailure('a');
    expect(breaker.state('a')).toBe('closed');
    expect(breaker.takeTransition('a')).toBeUndefined();
    breaker.recordFailure('a');
    expect(breaker.state('a')).toBe('open');
    expect(breaker.state('b')).toBe('closed');
    expect(breaker.takeTransition('a')).toBe('open');
    expect(breaker.takeTransition('a')).toBeUndefined();
    now = 29_999;
    expect(breaker.state('a')).toBe('open');
    expect(breaker.remainingOpenMs('a')).toBe(1);
    now = 30_000;
    expect(breaker.state('a')).toBe('half_open');
    breaker.recordFailure('a');
    expect(breaker.state('a')).toBe('open');
    now = 60_000;
    breaker.recordSuccess('a');
    expect(breaker.state('a')).toBe('closed');
    expect(breaker.takeTransition('a')).toBe('closed');
  });
  it('resets the count on success', () => {
    const breaker = new CircuitBreaker({ failureThreshold: 2 });
    breaker.recordFailure('a');
    breaker.recordSuccess('a');
    breaker.recordFailure('a');
    expect(breaker.state('a')).toBe('closed');
  });
});

describe('createIdleWatchdog', () => {
  it('fires once after idleMs armed, and never while disarmed', async () => {
    let fired = 0;
    const watchdog = createIdleWatchdog(30, () => (fired += 1));
    watchdog.arm();
    watchdog.disarm();
    await new Promise((r) => setTimeout(r, 60));
    expect(fired).toBe(0);
    watchdog.arm();
    await new Promise((r) => setTimeout(r, 60));
    expect(fired).toBe(1);
    expect(watchdog.fired).toBe(true);
    watchdog.arm();
    await new Promise((r) => setTimeout(r, 60));
    expect(fired).toBe(1);
  });

  it('counts from the last arm, so a stream whose chunks keep coming never fires', async () => {
    let fired = 0;
    const watchdog = createIdleWatchdog(200, () => (fired += 1));
    watchdog.arm();
    await new Promise((r) => setTimeout(r, 150));
    watchdog.disarm();
    watchdog.arm();
    // Due 200 ms after the first arm, the timer finds the watchdog armed 50 ms ago and waits out the rest.
    await new Promise((r) => setTimeout(r, 150));
    expect(fired).toBe(0);
    await new Promise((r) => setTimeout(r, 150));
    expect(fired).toBe(1);
  });

  it('leaves no timer to hold the process once stopped, disarmed or not', async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    let fired = 0;
    const watchdog = createIdleWatchdog(30, () => (fired += 1));
    watchdog.arm();
    watchdog.disarm();
    expect(timers()).toBe(before + 1);
    watchdog.stop();
    expect(timers()).toBe(before);
    watchdog.arm();
    watchdog.stop();
    await new Promise((r) => setTimeout(r, 60));
    expect(fired).toBe(0);
    expect(watchdog.fired).toBe(false);
  });
});

describe('isSemanticEvent', () => {
  it('counts content events only', () => {
    const error = new ProviderError({ kind: 'server', message: 'x', provider: 'p' });
    expect(isSemanticEvent({ type: 'text-delta', text: 'a' })).toBe(true);
    expect(isSemanticEvent({ type: 'tool-call-start', id: 'a', name: 'b' })).toBe(true);
    expect(isSemanticEvent({ type: 'thinking-signature', signature: 's' })).toBe(true);
    expect(isSemanticEvent({ type: 'retry', attempt: 1, delayMs: 1, error })).toBe(false);
    expect(isSemanticEvent({ type: 'breaker', provider: 'p', state: 'open' })).toBe(false);
    expect(isSemanticEvent({ type: 'usage', usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } })).toBe(false);
  });
});
