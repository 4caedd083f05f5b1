import type { ModelRequest } from './request.js';
import type { StreamEvent } from './stream-event.js';

/**
 * One model of one provider, ready to stream. Implementations never throw from
 * `stream`: every failure, abort included, arrives as a final `error` event.
 */
export interface LanguageModel {
  /** Provider id from the registry or config (e.g. `openai`, `deepseek`, `local`). */
  readonly provider: string;
  /** The vendor's model id. */
  readonly modelId: string;
  /** Wire protocol, one of ProviderTypeSchema's (a Vertex model reports the protocol of the model it serves: `gemini` or `anthropic-messages`). */
  readonly protocol: string;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent>;
  /**
   * Readies the model for a first request while nothing else runs: opens a connection to
   * its server (sending nothing), and may run its response parser once over a sample, so
   * that the request finds it connected and the first reply its parser compiled. Never
   * throws; models that must sign in or look up their endpoint first leave it out.
   */
  prepare?(): void;
}
