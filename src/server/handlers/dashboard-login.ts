import type { DashboardLoginResponse } from '../../../protocol/index.js';
import type { DaemonShell } from '../daemon-shell.js';
import type { ClientConnection } from '../wire/client-connection.js';
import { RpcError } from '../wire/rpc-error.js';

/**
 * `dashboard/login`: answered from the shell, like daemon/status (the HTTP listener is a
 * transport, the shell's business, and needs no sessions). A browser already logged in
 * gets no new tokens through its own WebSocket: a login address is for a client that
 * reached the daemon some other way (its socket, stdio, TCP with the token).
 */
export async function dashboardLogin(shell: DaemonShell, client: ClientConnection): Promise<DashboardLoginResponse> {
  if (client.transport === 'http') {
    throw RpcError.unauthorized('dashboard/login is refused on the page\'s own WebSocket: run `agentd dashboard` for a login address');
  }
  if (!shell.dashboard) throw RpcError.internal('this daemon serves no dashboard (it lives only for one `agentd run`)');
  try {
    return await shell.dashboard.login();
  } catch (error) {
    throw RpcError.internal(`cannot serve the dashboard: ${(error as Error).message}`);
  }
}
