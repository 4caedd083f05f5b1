import { describe, expect, it } from 'vitest';
import type { McpServerStatus } from '../../../src/tools/mcp/mcp-manager.js';
import { waitForMcpServers, type McpServersView, type McpWaitOutcome } from '../../../src/tools/mcp/wait-for-mcp-servers.js';

/** A manager's view with states the test sets: `set` changes one and tells the listeners, as McpManager does. */
function fakeView(initial: McpServerStatus[]): McpServersView & { set(status: McpServerStatus): void; tell(status: McpServerStatus): void; remove(name: string): void } {
  let states = [...initial];
  const listeners = new Set<(status: McpServerStatus) => void>();
  return {
    status: (sessionId) => states.filter((s) => s.sessionId === undefined || s.sessionId === sessionId),
    onStateChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(status) {
      states = [...states.filter((s) => s.name !== status.name), status];
      for (const listener of listeners) listener(status);
    },
    /** A change of a server object no longer listed (the failed one a restart replaces). */
    tell(status) {
      for (const listener of listeners) listener(status);
    },
    remove(name) {
      const gone = states.find((s) => s.name === name)!;
      states = states.filter((s) => s.name !== name);
      for (const listener of listeners) listener({ ...gone, state: 'stopped' });
    },
  };
}

const server = (name: string, state: McpServerStatus['state'], extra: Partial<McpServerStatus> = {}): McpServerStatus => ({ name, state, tools: [], startupTimeoutMs: 60_000, ...extra });

function record(): { log: string[]; listener: Parameters<typeof waitForMcpServers>[3] } {
  const log: string[] = [];
  return {
    log,
    listener: {
      waiting: (status) => void log.push(`waiting ${status.name}`),
      settled: (status, outcome: McpWaitOutcome) => void log.push(`${outcome} ${status.name} (${status.state})`),
    },
  };
}

describe('waitForMcpServers', () => {
  it('waits for the servers still starting only, until each runs or fails', async () => {
    const view = fakeView([server('up', 'running'), server('bad', 'failed'), server('slow', 'starting'), server('doomed', 'starting'), server('other', 'starting', { sessionId: 's2' })]);
    const { log, listener } = record();
    const done = waitForMcpServers(view, 's1', new AbortController().signal, listener);
    expect(log).toEqual(['waiting slow', 'waiting doomed']);
    view.set(server('doomed', 'failed', { error: 'ENOENT' }));
    view.set(server('slow', 'running', { tools: ['slow__lookup'] }));
    await done;
    expect(log).toEqual(['waiting slow', 'waiting doomed', 'failed doomed (failed)', 'started slow (running)']);
  });

  it('keeps waiting through a restart that stops the failed server under a successor already starting, and ends when one is removed', async () => {
    const view = fakeView([server('again', 'starting'), server('removed', 'starting')]);
    const { log, listener } = record();
    const done = waitForMcpServers(view, 's1', new AbortController().signal, listener);
    // The one being replaced says `stopped`, but the server of that name is starting.
    view.tell(server('again', 'stopped'));
    view.remove('removed');
    expect(log).toEqual(['waiting again', 'waiting removed', 'failed removed (stopped)']);
    view.set(server('again', 'running'));
    await done;
    expect(log.at(-1)).toBe('started again (running)');
  });

  it('gives a server up at its startup limit, and stops waiting at once when the turn is cancelled', async () => {
    const view = fakeView([server('quick-limit', 'starting', { startupTimeoutMs: 50 }), server('long', 'starting')]);
    const { log, listener } = record();
    const cancel = new AbortController();
    const done = waitForMcpServers(view, 's1', cancel.signal, listener);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(log).toEqual(['waiting quick-limit', 'waiting long', 'timed_out quick-limit (starting)']);
    cancel.abort();
    await done;
    expect(log.at(-1)).toBe('cancelled long (starting)');
  });

  it('returns at once when nothing is starting', async () => {
    const { log, listener } = record();
    await waitForMcpServers(fakeView([server('up', 'running')]), 's1', new AbortController().signal, listener);
    expect(log).toEqual([]);
  });
});
