import type { StreamEvent } from '../stream-event.js';

/**
 * Whether an event carries message content (text, reasoning, a tool call, a server-tool
 * block). Once one has reached the consumer, a failed response cannot be retried
 * transparently: the content stands and the failure surfaces. `usage`, `stop`, `error`, `notice` and the resilience
 * notices (`retry`, `breaker`) are not semantic.
 */
export function isSemanticEvent(event: StreamEvent): boolean {
  switch (event.type) {
    case 'text-delta':
    case 'text-end':
    case 'server-tool':
    case 'thinking-delta':
    case 'thinking-signature':
    case 'tool-call-start':
    case 'tool-call-delta':
    case 'tool-call-end':
      return true;
    default:
      return false;
  }
}
