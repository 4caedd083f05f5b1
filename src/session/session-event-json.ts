import type { SessionEvent } from './session-event.js';

/**
 * A session event as JSON text, for followers on other daemons. An Error (a retry's or a
 * fallback's provider error) keeps its name and message, which JSON.stringify alone drops.
 */
export function sessionEventToJson(event: SessionEvent): string {
  return JSON.stringify(event, (_key, value: unknown) =>
    value instanceof Error ? { ...value, name: value.name, message: value.message } : value,
  );
}

/** The event sessionEventToJson wrote (by a daemon of this cluster, from this same type). */
export function sessionEventFromJson(text: string): SessionEvent {
  return JSON.parse(text) as SessionEvent;
}
