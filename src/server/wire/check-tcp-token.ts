import { timingSafeEqual } from 'node:crypto';
import { AgentdInitializeRequestMetaSchema, readAgentdMeta } from '../../../protocol/index.js';
import type { ClientConnection } from './client-connection.js';
import type { DaemonShell } from '../daemon-shell.js';
import { RpcError } from './rpc-error.js';

/**
 * TCP connections must open with `initialize` carrying `_meta.agentd.token`. Anything
 * else, or a wrong token, is answered with Unauthorized and the connection is closed.
 */
export function checkTcpToken(method: string, params: unknown, client: ClientConnection, shell: DaemonShell): void {
  // Read alone, before the params are checked: a token that is not a string is no token.
  const token = readAgentdMeta(AgentdInitializeRequestMetaSchema.pick({ token: true }).loose(), params)?.token;
  // Compare bytes, not characters: timingSafeEqual needs buffers of equal byte length.
  const expected = Buffer.from(shell.tcpToken ?? '');
  const given = Buffer.from(token ?? '');
  const ok = method === 'initialize' && expected.length > 0 && given.length === expected.length && timingSafeEqual(given, expected);
  if (ok) {
    client.markAuthenticated();
    return;
  }
  // Close after the error answer has been queued.
  setImmediate(() => client.rpc.close());
  throw RpcError.unauthorized(
    method === 'initialize'
      ? 'wrong or missing token: pass the contents of the token file in initialize params _meta.agentd.token'
      : `the first message on a TCP connection must be initialize with _meta.agentd.token, not ${method}`,
  );
}
