import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { DashboardConnection } from '../../../../clients/web/src/connection/dashboard-connection.js';
import { ConnectionStatus } from '../../../../clients/web/src/shell/connection-status.js';

describe('the connection status', () => {
  it('shows the connection state, why it is down and a Reconnect button only while not connected', () => {
    const connection = new DashboardConnection('ws://127.0.0.1:1/rpc', () => undefined);
    connection.status.value = 'disconnected';
    connection.problem.value = 'the connection to agentd closed';
    const down = renderToString(h(ConnectionStatus, { connection }));
    expect(down.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|')).toBe('|Disconnected|the connection to agentd closed|Reconnect|');
    connection.status.value = 'connected';
    expect(renderToString(h(ConnectionStatus, { connection }))).not.toContain('<button');
  });
});
