import { PromptContentError } from '../../session/convert-prompt.js';
import type { RequestHandler } from '../handler-table.js';
import { RpcError } from '../rpc-error.js';
import { openSession } from './open-session.js';

/** Queues a message for when the agent would otherwise stop; starts a turn when idle. */
export const sessionFollowUp: RequestHandler<'session/followUp'> = (params, { client, daemon }) => {
  const session = openSession(daemon, params.sessionId);
  try {
    return { queued: session.deliver('followUp', params.prompt, { origin: client.id }) };
  } catch (error) {
    if (error instanceof PromptContentError) throw RpcError.invalidParams('session/followUp', [error.message]);
    throw error;
  }
};
