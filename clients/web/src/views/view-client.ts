import type { ClientRequestMethod, DaemonNotificationMethod, ParamsOf, ResultOf } from '../../../../protocol/index.js';
import type { NotificationHandler } from '../../../../protocol/wire/peer-role.js';

/**
 * What a view needs of the connection: typed requests and daemon notifications. The
 * TypeScript client's AgentdClient has exactly these two methods, whatever its transport
 * (a WebSocket in the page), so a view takes the client and nothing wider.
 */
export interface ViewClient {
  request<M extends ClientRequestMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  onNotification<M extends DaemonNotificationMethod>(method: M, handler: NotificationHandler<M>): () => void;
}
