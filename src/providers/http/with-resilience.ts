import { setTimeout as delay } from 'node:timers/promises';
import type { LanguageModel } from '../language-model.js';
import { ProviderError, type ProviderErrorKind } from '../provider-error.js';
import type { ModelRequest } from '../request.js';
import type { StreamEvent } from '../stream-event.js';
import { backoffDelay } from './backoff-delay.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import { isSemanticEvent } from './is-semantic-event.js';
import { markMidStream } from './mark-mid-stream.js';

export interface ResilienceOptions {
  /** Retries after the first attempt. Default 4. */
  maxRetries?: number;
  /** Longest single wait, the server's retry-after included. Default 60 000 ms. */
  maxRetryDelayMs?: number;
  /** Shared breaker; the circuit is keyed by the model's provider id. */
  breaker: CircuitBreaker;
  /** Wait `ms`, rejecting when `signal` aborts. Injectable for tests. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1). Injectable for tests. */
  random?: () => number;
}

/** Failures that say the provider is down or overloaded: they count on the breaker and justify a fallback. */
const unavailableKinds: ReadonlySet<ProviderErrorKind> = new Set(['overloaded', 'server', 'network', 'timeout']);

/**
 * Whether a failed response should be given to the fallback model: the provider stayed
 * unavailable after its retries (or its circuit is open) before any content arrived. The
 * loop decides, so that the model that answers is the one priced, stored and replayed.
 */
export function justifiesFallback(error: ProviderError): boolean {
  return unavailableKinds.has(error.kind) && !error.midStream;
}

const defaultSleep = (ms: number, signal: AbortSignal): Promise<void> => delay(ms, undefined, { signal });

/**
 * Wrap a model with retries and a circuit breaker (the fallback model is the loop's choice:
 * see justifiesFallback).
 *
 * Retryable failures (429 rate limits, 408, 409, 5xx, 529, network errors, stalls — see
 * ProviderError.retryable) are retried with backoff while no semantic event has been
 * yielded: until then events are held back, so a retried attempt leaves no trace but a
 * `retry` notice. After the first semantic event a failure ends the stream as an `error`
 * with `midStream: true` and the content already yielded stands. Auth, bad requests,
 * not-found, context overflow, quota and aborts are never retried.
 */
export function withResilience(model: LanguageModel, options: ResilienceOptions): LanguageModel {
  const maxRetries = options.maxRetries ?? 4;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  const { breaker } = options;
  const sleep = options.sleep ?? defaultSleep;
  const key = model.provider;

  function* announce(): Generator<StreamEvent> {
    const state = breaker.takeTransition(key);
    if (state !== undefined) yield { type: 'breaker', provider: key, state };
  }

  async function* stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    for (let attempt = 0; ; attempt += 1) {
      yield* announce();
      if (breaker.state(key) === 'open') {
        const seconds = Math.ceil(breaker.remainingOpenMs(key) / 1000);
        const error = new ProviderError({
          kind: 'overloaded',
          provider: model.provider,
          model: model.modelId,
          message: `${model.provider}: circuit open after repeated failures; calls resume in ${seconds} s`,
        });
        yield { type: 'error', error };
        return;
      }

      const held: StreamEvent[] = [];
      let semantic = false;
      let stop: StreamEvent | undefined;
      let failure: ProviderError | undefined;
      try {
        for await (const event of model.stream(request, signal)) {
          if (event.type === 'error') {
            failure = event.error;
            break;
          }
          if (event.type === 'stop') {
            stop = event;
            break;
          }
          if (!semantic && !isSemanticEvent(event)) {
            held.push(event);
            continue;
          }
          if (!semantic) {
            semantic = true;
            yield* held.splice(0);
          }
          yield event;
        }
      } catch (error) {
        // LanguageModel.stream must not throw; if one does, treat it as a failed attempt.
        failure = toProviderError(error, model, signal);
      }
      if (failure === undefined && stop === undefined) {
        failure = new ProviderError({
          kind: 'network',
          provider: model.provider,
          model: model.modelId,
          message: `${model.provider}: the response ended without a stop or error event`,
        });
      }

      if (failure === undefined) {
        breaker.recordSuccess(key);
        yield* announce();
        yield* held;
        if (stop !== undefined) yield stop;
        return;
      }
      if (unavailableKinds.has(failure.kind)) breaker.recordFailure(key);
      yield* announce();
      if (semantic) {
        yield { type: 'error', error: markMidStream(failure) };
        return;
      }
      if (failure.retryable && attempt < maxRetries && breaker.state(key) !== 'open' && !signal.aborted) {
        const delayMs = backoffDelay({ attempt: attempt + 1, maxDelayMs: maxRetryDelayMs, retryAfterMs: failure.retryAfterMs, random: options.random });
        yield { type: 'retry', attempt: attempt + 1, delayMs, error: failure };
        try {
          await sleep(delayMs, signal);
        } catch {
          yield { type: 'error', error: aborted(model) };
          return;
        }
        continue;
      }
      yield { type: 'error', error: failure };
      return;
    }
  }

  return {
    provider: model.provider,
    modelId: model.modelId,
    protocol: model.protocol,
    ...(model.prepare ? { prepare: () => model.prepare?.() } : {}),
    stream,
  };
}

function aborted(model: LanguageModel): ProviderError {
  return new ProviderError({ kind: 'aborted', provider: model.provider, model: model.modelId, message: `${model.provider}: aborted while waiting to retry` });
}

function toProviderError(error: unknown, model: LanguageModel, signal: AbortSignal): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal.aborted) return aborted(model);
  const detail = error instanceof Error ? error.message : String(error);
  return new ProviderError({ kind: 'network', provider: model.provider, model: model.modelId, message: `${model.provider}: ${detail}` });
}
