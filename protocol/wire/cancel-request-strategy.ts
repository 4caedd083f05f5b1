import { CancellationReceiverStrategy, type CancellationStrategy, type MessageConnection } from 'vscode-jsonrpc/node.js';

/**
 * Request cancellation as ACP spells it: this side sends `$/cancel_request` `{requestId}`.
 * Received, both that and LSP's `$/cancelRequest` `{id}` are honoured: the NDJSON reader
 * hands ACP's spelling to vscode-jsonrpc as LSP's (see toLspCancel), which then cancels a
 * running handler's token, or answers a request still queued.
 */
export const cancelRequestStrategy: CancellationStrategy = {
  receiver: CancellationReceiverStrategy.Message,
  sender: {
    sendCancellation: (connection: MessageConnection, id: string | number): Promise<void> => connection.sendNotification('$/cancel_request', { requestId: id }),
    cleanup: () => undefined,
  },
};

/**
 * ACP's `$/cancel_request` `{requestId}` as vscode-jsonrpc's `$/cancelRequest` `{id}`; any
 * other message as it is. A cancel that names no string or integer id cancels nothing and
 * is dropped (undefined): vscode-jsonrpc reads `params.id.toString()` and would throw.
 */
export function toLspCancel(message: Record<string, unknown>): Record<string, unknown> | undefined {
  if ('id' in message || (message.method !== '$/cancel_request' && message.method !== '$/cancelRequest')) return message;
  const params = (typeof message.params === 'object' && message.params !== null ? message.params : {}) as { requestId?: unknown; id?: unknown };
  const id = message.method === '$/cancel_request' ? params.requestId : params.id;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return undefined;
  return { jsonrpc: '2.0', method: '$/cancelRequest', params: { id } };
}
