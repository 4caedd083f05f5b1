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

/** ACP's `$/cancel_request` `{requestId}` as vscode-jsonrpc's `$/cancelRequest` `{id}`; any other message as it is. */
export function toLspCancel(message: Record<string, unknown>): Record<string, unknown> {
  if (message.method !== '$/cancel_request' || 'id' in message) return message;
  const params = (message.params ?? {}) as { requestId?: unknown };
  return { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: params.requestId } };
}
