import type { McpServerStatus } from './mcp-manager.js';

/** The MCP servers a session sees, as McpManager gives them. */
export interface McpServersView {
  /** The config servers and the session's own, as they stand now. */
  status(sessionId: string): McpServerStatus[];
  /** Calls `listener` on every state change of every server; returns the unsubscribe. */
  onStateChange(listener: (status: McpServerStatus) => void): () => void;
}

/** How a wait for one server ended. */
export type McpWaitOutcome = 'started' | 'failed' | 'timed_out' | 'cancelled';

/** Told what a wait does, so the user sees it. */
export interface McpWaitListener {
  /** The wait for this server begins. */
  waiting(status: McpServerStatus): void;
  /** The wait for this server is over; `status` is how it stands then. */
  settled(status: McpServerStatus, outcome: McpWaitOutcome): void;
}

/**
 * Waits for the servers a session sees that are still starting, each up to its own
 * startup limit (the server itself fails at that limit, counted from its start; this
 * bound only keeps a wait from outliving it): their tools then reach the turn's first
 * model request. A server that failed is not waited for, nor one running or restarting
 * (its tools are listed). Resolves when none is left starting or `signal` fires.
 */
export async function waitForMcpServers(view: McpServersView, sessionId: string, signal: AbortSignal, listener: McpWaitListener): Promise<void> {
  if (signal.aborted) return;
  const left = new Map<string, McpServerStatus>();
  const keyOf = (status: McpServerStatus): string => `${status.sessionId ?? ''}\u0000${status.name}`;
  await new Promise<void>((resolve) => {
    const timers: NodeJS.Timeout[] = [];
    const settle = (key: string, status: McpServerStatus, outcome: McpWaitOutcome): void => {
      if (!left.delete(key)) return;
      listener.settled(status, outcome);
      if (left.size === 0) finish();
    };
    const finish = (): void => {
      unsubscribe();
      for (const timer of timers) clearTimeout(timer);
      signal.removeEventListener('abort', cancel);
      resolve();
    };
    const cancel = (): void => {
      for (const [key, status] of [...left]) settle(key, status, 'cancelled');
    };
    // Subscribed before the states are read, so no change falls in between.
    // A change is judged by how the server stands now: the one a restart replaces reports
    // `stopped` while its successor is already starting under the same name.
    const unsubscribe = view.onStateChange((changed) => {
      const key = keyOf(changed);
      if (!left.has(key)) return;
      const now = view.status(sessionId).find((status) => keyOf(status) === key);
      if (now?.state === 'starting') return;
      settle(key, now ?? changed, now === undefined || now.state === 'failed' || now.state === 'stopped' ? 'failed' : 'started');
    });
    for (const status of view.status(sessionId)) {
      if (status.state !== 'starting') continue;
      const key = keyOf(status);
      left.set(key, status);
      listener.waiting(status);
      timers.push(setTimeout(() => settle(key, status, 'timed_out'), status.startupTimeoutMs));
    }
    if (left.size === 0) return finish();
    signal.addEventListener('abort', cancel, { once: true });
  });
}
