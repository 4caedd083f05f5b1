import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { z } from 'zod';
import { formatJsonPath } from '../../../protocol/format-json-path.js';
import { ProviderError } from '../provider-error.js';
import type { StreamEvent } from '../stream-event.js';
import { isSemanticEvent } from './is-semantic-event.js';
import { markMidStream } from './mark-mid-stream.js';
import type { StreamParser } from './stream-through-parser.js';

/** Who is streaming, for error messages. */
export interface StreamContext {
  provider: string;
  model?: string;
}

/**
 * Where a protocol's mapping puts its events. It owns the bookkeeping every protocol
 * shares: nothing passes after the first `stop` or `error`, and an error after content
 * is flagged `midStream` (it can no longer be retried transparently).
 */
export interface StreamSink {
  /** Pass one event on; a `stop` or `error` finishes the stream. */
  emit(event: StreamEvent): void;
  /** End with this error, flagged `midStream` when content was already emitted. */
  fail(error: ProviderError): void;
  /** A semantic event (text, reasoning, a tool call, a block) was emitted. */
  readonly emittedContent: boolean;
  /** A `stop` or `error` was emitted. */
  readonly finished: boolean;
  /** The ordinal of the SSE event being handled, from 1, counting every event (stable ids). */
  readonly position: number;
}

/** One protocol's events mapped onto the unified stream. */
export interface SseJsonMapping<T> {
  /** Protocol id, named in error messages (`anthropic-messages`, `gemini`, ...). */
  protocol: string;
  context: StreamContext;
  /** The lenient schema of one event's JSON: unknown fields are accepted, a wrong field is an error. */
  schema: z.ZodType<T>;
  /**
   * False for an event this protocol does not read (e.g. an event type added after it
   * was written): it is skipped without being checked. Every event is read when absent.
   */
  reads?(json: Record<string, unknown>): boolean;
  /**
   * True for an event of the protocol's common shape that `schema` would accept as it is
   * (a cheap check by hand): it is read without the schema's walk. False sends it through
   * the schema. Every event goes through the schema when absent.
   */
  plain?(json: Record<string, unknown>, event: string | undefined): json is Record<string, unknown> & T;
  /** One event's data, parsed and checked; `event` is the SSE `event:` name, if any. */
  onEvent(value: T, sink: StreamSink, event: string | undefined): void;
  /** Data that is not JSON but a protocol marker (Chat's `[DONE]`): true when handled. */
  onMarker?(data: string, sink: StreamSink): boolean;
  /**
   * The body ended and the stream is not finished: emit the closing events, or fail
   * with the protocol's truncation error. Also called when the body's last line was cut
   * off mid-JSON, which is a truncation too.
   */
  onEnd(sink: StreamSink): void;
}

/**
 * The one SSE-to-JSON parser (vercel/ai's `createEventSourceResponseHandler` is the
 * model): decoded text in, each `data:` parsed as JSON and checked against the
 * protocol's schema, the mapping turns it into unified events. Empty data and data that
 * is a comment (`data: : keepalive`, some proxies) carry nothing; JSON that is not an
 * object (a bare number or string) is no event of any protocol here and is skipped.
 * Data that is not JSON, or an event that does not fit the schema, ends the stream with
 * a `server` error naming the protocol (and the field); never a TypeError.
 */
export function parseSseJsonStream<T>(mapping: SseJsonMapping<T>): StreamParser {
  const { protocol, context } = mapping;
  let out: StreamEvent[] = [];
  let finished = false;
  let emittedContent = false;
  let ending = false;
  let position = 0;

  const sink: StreamSink = {
    emit(event) {
      if (finished) return;
      if (event.type === 'stop' || event.type === 'error') finished = true;
      else if (isSemanticEvent(event)) emittedContent = true;
      out.push(event);
    },
    fail(error) {
      sink.emit({ type: 'error', error: emittedContent ? markMidStream(error) : error });
    },
    get emittedContent() {
      return emittedContent;
    },
    get finished() {
      return finished;
    },
    get position() {
      return position;
    },
  };

  const malformed = (what: string): ProviderError =>
    new ProviderError({
      kind: 'server',
      message: `${context.provider} (${protocol}): the stream sent ${what}`,
      provider: context.provider,
      model: context.model,
      midStream: emittedContent,
    });

  const onEvent = (message: EventSourceMessage): void => {
    if (finished) return;
    position += 1;
    const data = message.data.trim();
    if (data === '' || data.startsWith(':')) return;
    if (mapping.onMarker?.(data, sink) === true) return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      // An unparseable last line when the body ended is a line cut off mid-way.
      if (ending) mapping.onEnd(sink);
      else sink.fail(malformed(`data that is not JSON: ${clip(data)}`));
      return;
    }
    if (!isRecord(json)) return;
    if (mapping.reads?.(json) === false) return;
    if (mapping.plain?.(json, message.event) === true) {
      mapping.onEvent(json, sink, message.event);
      return;
    }
    const checked = mapping.schema.safeParse(json);
    if (!checked.success) {
      const first = checked.error.issues[0];
      const issue = first === undefined ? undefined : deepestIssue(first);
      const field = issue === undefined ? '' : ` at ${formatJsonPath(issue.path)} (${issue.message})`;
      // Naming the event's type says which event the field belongs to, before the payload.
      const what = typeof json.type === 'string' ? `a "${clip(json.type)}" event` : 'an event';
      sink.fail(malformed(`${what} that does not fit the ${protocol} format${field}: ${clip(data)}`));
      return;
    }
    mapping.onEvent(checked.data, sink, message.event);
  };

  const sse = createParser({ onEvent });

  const drain = (): StreamEvent[] => {
    const events = out;
    out = [];
    return events;
  };

  return {
    push(text) {
      if (!finished) sse.feed(text);
      return drain();
    },
    end() {
      if (!finished) {
        // A last event without its blank line still counts: the body ended on it.
        ending = true;
        sse.feed('\n\n');
        if (!finished) mapping.onEnd(sink);
      }
      return drain();
    },
    fail(error) {
      sink.fail(error);
      return drain();
    },
    get finished() {
      return finished;
    },
  };
}

/** A zod issue as far as the error message reads it. */
interface Issue {
  path: PropertyKey[];
  message: string;
  code?: string;
  errors?: Issue[][];
}

/**
 * The issue that names the wrong field. A union (`content`: a string or an array of
 * parts) reports only "Invalid input" at its own path; the option that got furthest
 * before failing (the array, at `content[0].text`) is the one the vendor meant.
 */
function deepestIssue(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || issue.errors === undefined) return issue;
  let best = issue;
  for (const option of issue.errors) {
    const inner = option[0];
    if (inner === undefined) continue;
    const candidate = deepestIssue({ ...inner, path: [...issue.path, ...inner.path] });
    if (candidate.path.length > best.path.length) best = candidate;
  }
  return best;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
