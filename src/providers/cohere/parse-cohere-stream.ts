import { z } from 'zod';
import { parseSseJsonStream, type StreamSink } from '../http/parse-sse-json-stream.js';
import type { StreamParser } from '../http/stream-through-parser.js';
import { parseToolArguments } from '../parse-tool-arguments.js';
import { ProviderError } from '../provider-error.js';
import { cohereGenerationError, type CohereErrorContext } from './cohere-error.js';
import { cohereStreamSchemas, type CohereCitation, type CohereStreamEvent } from './cohere-stream-schema.js';
import type { CohereToolNames } from './cohere-tool-names.js';
import { COHERE_PROTOCOL, TOOL_PLAN_MARK } from './convert-to-cohere-messages.js';
import { formatCohereCitations } from './format-cohere-citations.js';
import { mapCohereStopReason } from './map-cohere-stop-reason.js';
import { mapCohereUsage } from './map-cohere-usage.js';

/** Built on the first event (the schemas are built on first use; a model's prepare() or the request's send builds them sooner). */
const eventSchema = z.lazy(() => cohereStreamSchemas().event);

/** One tool call being streamed. */
interface PendingCall {
  index: number | undefined;
  id: string;
  name: string;
  args: string;
}

/**
 * Parse a Chat v2 SSE stream (https://docs.cohere.com/v2/docs/streaming): `event: <type>`
 * and `data: {json}` frames, ended by `message-end` and then `data: [DONE]` (the SDKs'
 * stream terminator). Event order: message-start; tool-plan-delta* and per call
 * tool-call-start / tool-call-delta* / tool-call-end (the tool-calling step); per content
 * block content-start / content-delta* / content-end (text, or `thinking` on reasoning
 * models); citation-start / citation-end pairs, before or after content-end; message-end
 * with finish_reason and usage.
 *
 * - Reasoning (`thinking` content) is thinking. The tool plan is thinking too: it is the
 *   model's reasoning about which tools to call, sent in its own field (`tool_plan`) and
 *   not part of the answer; shown as text it would run into the answer the next response
 *   writes. It is marked (TOOL_PLAN_MARK) so that it goes back to Cohere as `tool_plan`.
 * - Citations are gathered and shown at message-end as a short source list, a text part
 *   of its own after the answer (formatCohereCitations).
 * - finish_reason ERROR or TIMEOUT ends the stream with an error, never a silent stop.
 */
export function parseCohereStream(context: CohereErrorContext, names: CohereToolNames): StreamParser {
  const textBlocks = new Set<number>();
  const calls: PendingCall[] = [];
  const citations: CohereCitation[] = [];
  let planOpen = false;
  let sawToolCalls = false;
  /** Answer text was streamed and no `text-end` has closed it yet. */
  let textOpen = false;

  function emitText(text: string, sink: StreamSink): void {
    textOpen = true;
    sink.emit({ type: 'text-delta', text });
  }

  function endText(sink: StreamSink): void {
    textOpen = false;
    sink.emit({ type: 'text-end' });
  }

  function closePlan(sink: StreamSink): void {
    if (!planOpen) return;
    planOpen = false;
    sink.emit({ type: 'thinking-signature', providerData: { ...TOOL_PLAN_MARK } });
  }

  function endCall(call: PendingCall, sink: StreamSink): void {
    calls.splice(calls.indexOf(call), 1);
    // Cohere sends `null` arguments for a tool that takes none (vercel/ai's Cohere provider notes the same).
    const text = call.args.trim() === 'null' ? '' : call.args;
    sink.emit({ type: 'tool-call-end', id: call.id, name: call.name, ...parseToolArguments(text, call.name) });
  }

  /** The call an event with this index belongs to: by index, else the latest (events without an index). */
  function findCall(index: number | undefined): PendingCall | undefined {
    return (index !== undefined ? calls.find((call) => call.index === index) : undefined) ?? calls.at(-1);
  }

  function finish(event: Extract<CohereStreamEvent, { type: 'message-end' }>, sink: StreamSink): void {
    closePlan(sink);
    for (const call of [...calls]) endCall(call, sink);
    const reason = event.delta?.finish_reason;
    if (reason === 'ERROR' || reason === 'TIMEOUT') {
      sink.fail(cohereGenerationError(context, reason, event.delta?.error));
      return;
    }
    const sources = formatCohereCitations(citations);
    if (sources !== '') {
      // A part of its own, so the list never runs into the answer's last sentence.
      if (textOpen) endText(sink);
      emitText(sources, sink);
      endText(sink);
    }
    if (event.delta?.usage !== undefined) sink.emit({ type: 'usage', usage: mapCohereUsage(event.delta.usage) });
    sink.emit({ type: 'stop', reason: mapCohereStopReason(reason, sawToolCalls) });
  }

  function handle(event: CohereStreamEvent, sink: StreamSink): void {
    switch (event.type) {
      case 'message-start':
        return;
      case 'content-start': {
        const content = event.delta?.message?.content;
        if (content?.type !== 'thinking') textBlocks.add(event.index ?? 0);
        if (content?.type === 'thinking' && nonEmpty(content.thinking)) sink.emit({ type: 'thinking-delta', text: content.thinking });
        else if (content?.type !== 'thinking' && nonEmpty(content?.text)) emitText(content.text, sink);
        return;
      }
      case 'content-delta': {
        const content = event.delta?.message?.content;
        if (nonEmpty(content?.thinking)) sink.emit({ type: 'thinking-delta', text: content.thinking });
        if (nonEmpty(content?.text)) emitText(content.text, sink);
        return;
      }
      case 'content-end':
        if (textBlocks.delete(event.index ?? 0)) endText(sink);
        return;
      case 'tool-plan-delta': {
        const plan = event.delta?.message?.tool_plan;
        if (nonEmpty(plan)) {
          planOpen = true;
          sink.emit({ type: 'thinking-delta', text: plan });
        }
        return;
      }
      case 'tool-call-start': {
        closePlan(sink);
        const call = event.delta?.message?.tool_calls;
        const id = nonEmpty(call?.id) ? call.id : `cohere_call_${event.index ?? calls.length}_${sink.position}`;
        const pending: PendingCall = { index: event.index, id, name: names.original(call?.function?.name ?? ''), args: call?.function?.arguments ?? '' };
        calls.push(pending);
        sawToolCalls = true;
        sink.emit({ type: 'tool-call-start', id, name: pending.name });
        if (pending.args !== '') sink.emit({ type: 'tool-call-delta', id, argsDelta: pending.args });
        return;
      }
      case 'tool-call-delta': {
        const call = findCall(event.index);
        const piece = event.delta?.message?.tool_calls?.function?.arguments;
        if (call === undefined || !nonEmpty(piece)) return;
        call.args += piece;
        sink.emit({ type: 'tool-call-delta', id: call.id, argsDelta: piece });
        return;
      }
      case 'tool-call-end': {
        const call = findCall(event.index);
        if (call !== undefined) endCall(call, sink);
        return;
      }
      case 'citation-start': {
        const citation = event.delta?.message?.citations;
        if (citation !== undefined) citations.push(citation);
        return;
      }
      case 'citation-end':
        return;
      case 'message-end':
        return finish(event, sink);
    }
  }

  const truncated = (what: string): ProviderError =>
    new ProviderError({ ...context, kind: 'network', message: `${context.provider} (${COHERE_PROTOCOL}): ${what}; the response was truncated` });

  return parseSseJsonStream({
    protocol: COHERE_PROTOCOL,
    context,
    schema: eventSchema,
    // `debug` and event types added after this was written are skipped.
    reads: (json) => typeof json.type === 'string' && cohereStreamSchemas().eventTypes.has(json.type),
    onEvent: handle,
    onMarker(data, sink) {
      if (data !== '[DONE]') return false;
      // message-end finishes the stream; [DONE] before it means the answer was cut off.
      sink.fail(truncated('the stream sent [DONE] before message-end'));
      return true;
    },
    onEnd(sink) {
      sink.fail(truncated('the stream ended before message-end (connection closed early)'));
    },
  });
}

function nonEmpty(value: string | undefined): value is string {
  return typeof value === 'string' && value !== '';
}
