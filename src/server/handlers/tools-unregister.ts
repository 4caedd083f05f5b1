import type { RequestHandler } from '../handler-table.js';

/** Removes tools this client registered; other clients' tools and unknown names are left alone. */
export const toolsUnregister: RequestHandler<'tools/unregister'> = (params, { client, daemon }) => ({
  unregistered: daemon.clientTools.unregister(client.peer, params.names),
});
