import { methodsByName } from '../../protocol/index.js';
import type { InitializeRequest } from '../../protocol/index.js';
import { checkTcpToken } from './wire/check-tcp-token.js';
import type { ClientConnection } from './wire/client-connection.js';
import type { DaemonShell } from './daemon-shell.js';
import { formatZodIssues } from './wire/format-zod-issues.js';
import type { HandlerTable, RequestHandler } from './handler-table.js';
import { daemonStatus } from './handlers/daemon-status.js';
import { dashboardLogin } from './handlers/dashboard-login.js';
import { initialize } from './handlers/initialize.js';
import type { InboundHandler } from './wire/json-rpc-connection.js';
import { RpcError } from './wire/rpc-error.js';
import { sessionErrorToRpc } from './session-error-to-rpc.js';

/**
 * Table-driven dispatch: the method's descriptor validates the params, then its one
 * handler runs, once the daemon behind the shell is ready (initialize needs only the
 * shell). Notifications go through the same table and never answer.
 */
export function createDispatcher(table: HandlerTable, client: ClientConnection, shell: DaemonShell): InboundHandler {
  // initialize, daemon/status and dashboard/login need only the shell: answered here, never through the table.
  const servedMethods: ReadonlySet<string> = new Set(['initialize', 'daemon/status', 'dashboard/login', ...Object.keys(table)]);
  // Handlers start in arrival order: one whose module is still loading must not be overtaken
  // by the next message's (a session/cancel by the session/prompt sent right behind it).
  let previousStart: Promise<unknown> = Promise.resolve();

  const validate = (method: string, raw: unknown): unknown => {
    const descriptor = methodsByName.get(method);
    if (!descriptor || descriptor.direction !== 'client-to-daemon') {
      throw RpcError.methodNotFound(method, 'see protocol/PROTOCOL.md for the methods agentd serves');
    }
    if (!servedMethods.has(method)) throw RpcError.methodNotFound(method, 'it is part of the protocol but this daemon does not serve it yet');
    const parsed = descriptor.params.safeParse(raw ?? {}, { reportInput: true });
    if (!parsed.success) throw RpcError.invalidParams(method, formatZodIssues(parsed.error));
    return parsed.data;
  };

  const run = async (method: string, params: unknown, signal: AbortSignal): Promise<unknown> => {
    if (method === 'initialize') {
      const answer = initialize(params as InitializeRequest, { client, shell, servedMethods });
      // The client is here: load the rest of the daemon now, after this answer is sent.
      setImmediate(() => void shell.context().catch(() => undefined));
      return answer;
    }
    if (method === 'daemon/status') return daemonStatus(shell);
    if (method === 'dashboard/login') return dashboardLogin(shell, client);
    const load = (table as Record<string, (() => Promise<RequestHandler<never>>) | undefined>)[method]!;
    const loading = Promise.all([load(), shell.context()]);
    // Observed now: it may fail while an earlier message's handler is still loading, and an
    // unobserved rejection would end the process before `start` gets to it.
    void loading.catch(() => undefined);
    const start = previousStart.then(() => loading);
    previousStart = start.catch(() => undefined);
    const [handler, daemon] = await start;
    try {
      // `params` passed validate() against this method's schema: the table lookup alone cannot tell the compiler which one.
      return await handler(params as never, { client, daemon, signal, servedMethods });
    } catch (error) {
      throw sessionErrorToRpc(method, error);
    }
  };

  return {
    request(method, rawParams, signal) {
      if (!client.authenticated) checkTcpToken(method, rawParams, client, shell);
      return run(method, validate(method, rawParams), signal);
    },
    notification(method, rawParams) {
      if (!client.authenticated) {
        client.rpc.close();
        return;
      }
      try {
        const params = validate(method, rawParams);
        void run(method, params, new AbortController().signal).catch((error: Error) =>
          shell.log(`${client.id}: notification ${method} failed: ${error.message}`),
        );
      } catch (error) {
        shell.log(`${client.id}: notification ${method} ignored: ${(error as Error).message}`);
      }
    },
  };
}
