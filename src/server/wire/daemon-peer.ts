import {
  InvalidResultError,
  formatJsonPath,
  methodsByName,
  type DaemonNotificationMethod,
  type DaemonRequestMethod,
  type ParamsOf,
  type ResultOf,
} from '../../../protocol/index.js';
import type { RemotePeer } from '../../tools/remote/remote-peer.js';
import type { JsonRpcConnection } from './json-rpc-connection.js';

/**
 * The daemon's side of one connection, typed by the protocol's method table: it sends
 * only the daemon's own notifications and requests, with their params as the schemas
 * infer them, and validates every answer against the method's result schema (as the MCP
 * SDK's `request(req, resultSchema)` does), so no handler trusts what a client sent back.
 */
export class DaemonPeer implements RemotePeer {
  constructor(private readonly rpc: JsonRpcConnection) {}

  get label(): string {
    return this.rpc.label;
  }

  get closed(): boolean {
    return this.rpc.closed;
  }

  onClose(listener: () => void): void {
    this.rpc.onClose(listener);
  }

  notify<M extends DaemonNotificationMethod>(method: M, params: ParamsOf<M>): void {
    this.rpc.notify(method, params);
  }

  /** A notification already serialized (see JsonRpcConnection.notifySerialized): the streamed deltas' fast path. */
  notifySerialized(json: string): void {
    this.rpc.notifySerialized(json);
  }

  async request<M extends DaemonRequestMethod>(method: M, params: ParamsOf<M>, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<ResultOf<M>> {
    const answer = await this.rpc.request(method, params, options);
    const schema = methodsByName.get(method)?.result;
    if (!schema) return answer as ResultOf<M>;
    const parsed = schema.safeParse(answer);
    if (!parsed.success) {
      throw new InvalidResultError(method, this.label, parsed.error.issues.map((issue) => `${formatJsonPath(issue.path)}: ${issue.message}`));
    }
    return parsed.data as ResultOf<M>;
  }
}
