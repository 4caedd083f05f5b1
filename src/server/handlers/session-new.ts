import { attachSession } from '../attach-session.js';
import type { RequestHandler } from '../handler-table.js';
import { requireDirectory } from './require-directory.js';

/** Creates a session rooted at an existing absolute cwd and follows it. */
export const sessionNew: RequestHandler<'session/new'> = (params, { client, daemon }) => {
  requireDirectory('session/new', 'cwd', params.cwd);
  const additional = params.additionalDirectories ?? [];
  additional.forEach((dir, i) => requireDirectory('session/new', `additionalDirectories[${i}]`, dir));
  const session = daemon.sessions.create({ cwd: params.cwd, additionalDirectories: additional });
  attachSession(client, session);
  return { sessionId: session.id };
};
