import { expect, it } from 'vitest';
import type { ClientConnection } from '../../src/server/client-connection.js';
import type { DaemonShell } from '../../src/server/daemon-shell.js';
import { createDispatcher } from '../../src/server/dispatch.js';
import type { HandlerTable } from '../../src/server/handler-table.js';

it('starts handlers in arrival order even when the first one is still loading', async () => {
  const started: string[] = [];
  // session/cancel's module takes a while to load (its first use); session/list's is loaded.
  const table = {
    'session/cancel': async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return () => void started.push('session/cancel');
    },
    'session/list': async () => () => {
      started.push('session/list');
      return { sessions: [] };
    },
  } as unknown as HandlerTable;
  const client = { authenticated: true } as unknown as ClientConnection;
  const shell = { context: async () => ({}), log: () => undefined } as unknown as DaemonShell;
  const dispatch = createDispatcher(table, client, shell);

  dispatch.notification('session/cancel', { sessionId: 's1' });
  await dispatch.request('session/list', {}, new AbortController().signal);
  expect(started).toEqual(['session/cancel', 'session/list']);
});
