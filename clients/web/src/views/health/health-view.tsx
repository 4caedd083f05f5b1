import { useEffect, useState } from 'preact/hooks';
import { errorText } from '../error-text.js';
import { formatTime } from '../format/format-time.js';
import type { ViewClient } from '../view-client.js';
import { ConfigChangeTable } from './config-change-table.js';
import type { Health } from './health-types.js';
import { McpServerTable } from './mcp-server-table.js';
import { ProviderTable } from './provider-table.js';
import { RecentProviderEvents } from './recent-provider-events.js';
import { SandboxSummary } from './sandbox-summary.js';
import '../views.css';
import './health.css';

/** Daemon events after which `daemon/health` answers differently. */
const REFRESHING_EVENTS = new Set(['mcp_server', 'config_reloaded', 'config_rejected']);

/** The daemon's health: providers and breakers, recent retries, MCP servers, the sandbox, config reloads. */
export function HealthView({ client }: { client: ViewClient }) {
  const [health, setHealth] = useState<Health | null>(null);
  const [loadedAt, setLoadedAt] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(
    () =>
      client.onNotification('agentd/daemonEvent', ({ event }) => {
        if (REFRESHING_EVENTS.has(event.type)) setVersion((v) => v + 1);
      }),
    [client],
  );

  useEffect(() => {
    let current = true;
    void client.request('daemon/health', {}).then(
      (result) => {
        if (!current) return;
        setHealth(result);
        setError(null);
        setLoadedAt(new Date().toISOString());
      },
      (failure: unknown) => current && setError(errorText(failure)),
    );
    return () => {
      current = false;
    };
  }, [client, version]);

  return (
    <section class="health-view" aria-labelledby="health-heading">
      <header class="view-header">
        <h1 id="health-heading">Health</h1>
        <button type="button" onClick={() => setVersion((v) => v + 1)}>
          Refresh
        </button>
        {loadedAt ? (
          <span class="health-loaded">
            {'As of '}
            <time dateTime={loadedAt}>{formatTime(loadedAt)}</time>
          </span>
        ) : null}
      </header>
      {error ? (
        <p role="alert" class="view-error">
          {`Could not load the daemon's health: ${error}`}
        </p>
      ) : null}
      {health ? (
        <>
          <ProviderTable providers={health.providers} />
          <RecentProviderEvents events={health.recent} />
          <McpServerTable servers={health.mcpServers} />
          <SandboxSummary sandbox={health.sandbox} />
          <ConfigChangeTable changes={health.config} />
        </>
      ) : error ? null : (
        <p class="view-loading">Loading health…</p>
      )}
    </section>
  );
}
