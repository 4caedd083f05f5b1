import { expect, it } from 'vitest';
import type { ClientConnection } from '../../src/server/wire/client-connection.js';
import type { DaemonShell } from '../../src/server/daemon-shell.js';
import { createDispatcher } from '../../src/server/dispatch.js';
import type { HandlerTable } from '../../src/server/handler-table.js';

/**
 * A dispatcher over a table where session/cancel's module takes a while to load (its first
 * use) and session/list's is loaded; `more` adds handlers. `started` lists the handlers run.
 */
function dispatcherWithSlowCancel(more: Record<string, unknown> = {}): { dispatch: ReturnType<typeof createDispatcher>; started: string[] } {
  const started: string[] = [];
  const table = {
    'session/cancel': async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return () => void started.push('session/cancel');
    },
    'session/list': async () => () => {
      started.push('session/list');
      return { sessions: [] };
    },
    ...more,
  } as unknown as HandlerTable;
  const client = { authenticated: true } as unknown as ClientConnection;
  const shell = { context: async () => ({}), log: () => undefined } as unknown as DaemonShell;
  return { dispatch: createDispatcher(table, client, shell), started };
}

it('starts handlers in arrival order even when the first one is still loading', async () => {
  const { dispatch, started } = dispatcherWithSlowCancel();
  dispatch.notification('session/cancel', { sessionId: 's1' });
  await dispatch.request('session/list', {}, new AbortController().signal);
  expect(started).toEqual(['session/cancel', 'session/list']);
});

it('a handler whose module fails to load while an earlier one still loads fails its own request only, and the next still runs', async () => {
  const { dispatch, started } = dispatcherWithSlowCancel({
    // Rejects at once, while session/cancel is still loading: nothing may wait unobserved on it.
    'session/close': async () => {
      throw new Error('module failed to load');
    },
  });
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    dispatch.notification('session/cancel', { sessionId: 's1' });
    const closing = dispatch.request('session/close', { sessionId: 's1' }, new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(closing).rejects.toThrow('module failed to load');
    await dispatch.request('session/list', {}, new AbortController().signal);
    expect(started).toEqual(['session/cancel', 'session/list']);
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
