import type { ParamsOf, ResultOf } from '../../../protocol/index.js';
import { convertPrompt } from '../../session/convert-prompt.js';
import type { DaemonContext } from '../daemon-context.js';
import { RpcError } from '../wire/rpc-error.js';

/**
 * `session/prompt` with `_meta.agentd.queue: true`: checks what would make the job fail
 * wherever it runs (an unknown session, content no model takes), queues it, and answers at
 * once. ACP's answer needs a stopReason: `end_turn` ends the request, and
 * `_meta.agentd.outcome: 'queued'` with the job id says the turn itself has not run yet;
 * its end comes as the session's `turn_end` event (the job id is its turn id) and its stored turn.
 */
export async function queuePrompt(params: ParamsOf<'session/prompt'>, daemon: DaemonContext): Promise<ResultOf<'session/prompt'>> {
  if (params._meta?.agentd?.delivery !== undefined) {
    throw RpcError.invalidParams('session/prompt', [
      '_meta.agentd.queue and _meta.agentd.delivery do not go together: a queued prompt runs as its own turn after the running one; leave out one of them',
    ]);
  }
  // Throws PromptContentError (invalid params) and SessionNotFoundError (not found), mapped by dispatch.
  convertPrompt(params.prompt);
  await daemon.sessions.record(params.sessionId);
  const { jobId } = await daemon.work.queuePrompt({ sessionId: params.sessionId, prompt: params.prompt });
  return { stopReason: 'end_turn', _meta: { agentd: { outcome: 'queued', jobId, queue: daemon.work.kind } } };
}
