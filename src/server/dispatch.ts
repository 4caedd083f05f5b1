import { methodsByName } from '../../protocol/index.js';
import type { ClientConnection } from './client-connection.js';
import type { DaemonContext } from './daemon-context.js';
import { formatZodIssues } from './format-zod-issues.js';
import type { HandlerTable, RequestHandler } from './handler-table.js';
import type { InboundHandler } from './json-rpc-connection.js';
import { RpcError } from './rpc-error.js';
import { checkTcpToken } from './check-tcp-token.js';

/**
 * Table-driven dispatch: the method's descriptor validates the params, then its one
 * handler runs. Notifications go through the same table and never answer.
 */
export function createDispatcher(table: HandlerTable, client: ClientConnection, daemon: DaemonContext): InboundHandler {
  const servedMethods: ReadonlySet<string> = new Set(Object.keys(table));
  const lookup = (method: string): { handler: RequestHandler<never>; params: (raw: unknown) => unknown } => {
    const descriptor = methodsByName.get(method);
    if (!descriptor || descriptor.direction !== 'client-to-daemon') {
      throw RpcError.methodNotFound(method, 'see protocol/PROTOCOL.md for the methods agentd serves');
    }
    const handler = (table as Record<string, RequestHandler<never> | undefined>)[method];
    if (!handler) throw RpcError.methodNotFound(method, 'it is part of the protocol but this daemon does not serve it yet');
    return {
      handler,
      params: (raw) => {
        const parsed = descriptor.params.safeParse(raw ?? {});
        if (!parsed.success) throw RpcError.invalidParams(method, formatZodIssues(parsed.error));
        return parsed.data;
      },
    };
  };

  return {
    async request(method, rawParams, signal) {
      if (!client.authenticated) checkTcpToken(method, rawParams, client, daemon);
      const { handler, params } = lookup(method);
      return handler(params(rawParams) as never, { client, daemon, signal, servedMethods });
    },
    notification(method, rawParams) {
      if (!client.authenticated) {
        client.rpc.close();
        return;
      }
      let entry;
      try {
        entry = lookup(method);
        const params = entry.params(rawParams);
        void Promise.resolve(entry.handler(params as never, { client, daemon, signal: new AbortController().signal, servedMethods })).catch(
          (error: Error) => daemon.log(`${client.id}: notification ${method} failed: ${error.message}`),
        );
      } catch (error) {
        daemon.log(`${client.id}: notification ${method} ignored: ${(error as Error).message}`);
      }
    },
  };
}
