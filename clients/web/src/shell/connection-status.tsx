import type { DashboardConnection } from '../connection/dashboard-connection.js';

const LABEL = { connecting: 'Connecting…', connected: 'Connected', disconnected: 'Disconnected' } as const;

/** The connection's state, why it is down, and a button to reconnect now. */
export function ConnectionStatus({ connection }: { connection: DashboardConnection }) {
  const status = connection.status.value;
  return (
    <div class={`connection connection-${status}`}>
      <span class="connection-dot" aria-hidden="true" />
      <span>{LABEL[status]}</span>
      {status === 'disconnected' && connection.problem.value ? <span class="connection-problem">{connection.problem.value}</span> : null}
      {status !== 'connected' ? (
        <button type="button" onClick={() => connection.reconnect()}>
          Reconnect
        </button>
      ) : null}
    </div>
  );
}
