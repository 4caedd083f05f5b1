import { useCallback, useEffect, useState } from 'preact/hooks';
import type { DaemonEvent } from '../../../../protocol/index.js';
import type { ViewClient } from './view-client.js';

/**
 * A version number for a view that reads a daemon snapshot (`daemon/health`,
 * `daemon/costs`): it goes up after any daemon event of `types`, at most once per
 * `delayMs` (a burst of events, like MCP servers restarting, reads the snapshot once),
 * and at once when `refresh` is called (the view's Refresh button). Reading again on
 * each change of the number is the view's effect.
 */
export function useEventRefresh(client: ViewClient, types: ReadonlySet<DaemonEvent['type']>, delayMs: number): { version: number; refresh: () => void } {
  const [version, setVersion] = useState(0);
  const refresh = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = client.onNotification('agentd/daemonEvent', ({ event }) => {
      if (!types.has(event.type) || timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        refresh();
      }, delayMs);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [client, types, delayMs, refresh]);
  return { version, refresh };
}
