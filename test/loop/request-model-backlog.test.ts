import { describe, expect, it } from 'vitest';
import type { LoopContext, TurnModel } from '../../src/loop/loop-context.js';
import type { LoopEvent } from '../../src/loop/loop-event.js';
import { requestModel } from '../../src/loop/request-model.js';
import type { LanguageModel } from '../../src/providers/language-model.js';
import type { StreamEvent } from '../../src/providers/stream-event.js';

/** A model streaming text pieces one at a time, counting how many the loop has pulled. */
class CountingModel implements LanguageModel {
  readonly provider = 'scripted';
  readonly modelId = 'scripted-1';
  readonly protocol = 'openai-chat';
  pulled = 0;
  constructor(private readonly pieces: string[]) {}
  async *stream(): AsyncIterable<StreamEvent> {
    for (const text of this.pieces) {
      this.pulled++;
      yield { type: 'text-delta', text };
    }
    yield { type: 'stop', reason: { unified: 'end_turn', raw: 'stop' } };
  }
}

/** Just what requestModel reads of a loop context: the port and the turn's request settings. */
function context(events: LoopEvent[], backlog: () => Promise<void> | undefined, signal: AbortSignal): LoopContext {
  return {
    port: { emit: (event: LoopEvent) => void events.push(event), backlog },
    turn: { system: [], tools: [], signal, requestSignal: () => signal },
  } as unknown as LoopContext;
}

const texts = (events: LoopEvent[]): string => events.map((event) => (event.type === 'text_delta' ? event.text : '')).join('');

describe('requestModel and a client backlog', () => {
  it('pulls no further from the stream while a client is backed up, and goes on in order once it catches up', async () => {
    const model = new CountingModel(['a', 'b', 'c', 'd']);
    const to = { ref: 'scripted/scripted-1', model, maxOutputTokens: 100 } as unknown as TurnModel;
    const events: LoopEvent[] = [];
    let release: () => void = () => undefined;
    const caughtUp = new Promise<void>((resolve) => (release = resolve));
    let backedUp = true;
    const response = requestModel(context(events, () => (backedUp && events.length === 2 ? caughtUp : undefined), new AbortController().signal), to, []);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(texts(events)).toBe('ab');
    expect(model.pulled).toBe(2);
    backedUp = false;
    release();
    const result = await response;
    expect(texts(events)).toBe('abcd');
    expect(result.aborted).toBe(false);
  });

  it('does not wait on a backlog once the request is aborted', async () => {
    const model = new CountingModel(['a', 'b']);
    const to = { ref: 'scripted/scripted-1', model, maxOutputTokens: 100 } as unknown as TurnModel;
    const events: LoopEvent[] = [];
    const abort = new AbortController();
    const never = new Promise<void>(() => undefined);
    const response = requestModel(context(events, () => never, abort.signal), to, []);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(texts(events)).toBe('a');
    abort.abort();
    const result = await response;
    expect(result.aborted).toBe(true);
  });
});
