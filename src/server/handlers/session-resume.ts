import { attachSession } from '../attach-session.js';
import type { RequestHandler } from '../handler-table.js';
import { openSession } from './open-session.js';

/** Follows a session again without replaying its history (ACP session/resume). */
export const sessionResume: RequestHandler<'session/resume'> = (params, { client, daemon }) => {
  const session = openSession(daemon, params.sessionId);
  attachSession(client, session);
  return { _meta: { agentd: { state: session.state } } };
};
