import { StoreError } from '../../store/store-error.js';
import type { RequestHandler } from '../handler-table.js';
import { RpcError } from '../wire/rpc-error.js';

/** Sessions newest first, optionally for one cwd, 50 a page. */
export const sessionList: RequestHandler<'session/list'> = async (params, { daemon }) => {
  let page;
  try {
    page = await daemon.sessions.list({ ...(params.cwd ? { cwd: params.cwd } : {}), ...(params.cursor ? { cursor: params.cursor } : {}) });
  } catch (error) {
    if (error instanceof StoreError && error.code === 'invalid_argument') {
      throw RpcError.invalidParams('session/list', [`cursor: ${error.message}`]);
    }
    throw error;
  }
  return {
    sessions: page.sessions.map((s) => ({
      sessionId: s.id,
      cwd: s.cwd,
      ...(s.additionalDirectories.length > 0 ? { additionalDirectories: s.additionalDirectories } : {}),
      ...(s.title ? { title: s.title } : {}),
      updatedAt: s.updatedAt,
    })),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};
