import { InFlightEvents } from './in-flight-events.js';
import type { SessionEvent } from './session-event.js';

/**
 * Sends one session's events to its subscribers, keeping what the live stream has shown
 * since the last stored message (see InFlightEvents) for a client that joins now. A
 * subscriber that throws is logged and does not stop the others.
 */
export class SessionEventStream {
  private readonly listeners = new Set<(event: SessionEvent) => void>();
  private readonly inFlight = new InFlightEvents();

  constructor(private readonly log: (line: string) => void) {}

  send(event: SessionEvent): void {
    this.inFlight.observe(event);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.log(`listener failed: ${(error as Error).message}`);
      }
    }
  }

  /** Receives every event from now on; returns the unsubscribe function. */
  subscribe(listener: (event: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The in-flight events, for a client joining now. */
  inFlightEvents(): readonly SessionEvent[] {
    return this.inFlight.snapshot();
  }
}
