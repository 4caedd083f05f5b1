import { UnknownChoiceError } from '../../session/session-errors.js';
import type { RequestHandler } from '../handler-table.js';
import { RpcError } from '../wire/rpc-error.js';

/** Switches the session's agent (build, plan, explore or a user agent). */
export const sessionSetMode: RequestHandler<'session/set_mode'> = async (params, { daemon }) => {
  const session = await daemon.sessions.open(params.sessionId);
  try {
    await session.setMode(params.modeId);
  } catch (error) {
    if (error instanceof UnknownChoiceError) throw RpcError.invalidParams('session/set_mode', [`modeId: ${error.message}`]);
    throw error;
  }
  return {};
};
