import type { ParamsOf, ResultOf } from '../../../protocol/index.js';
import { convertPrompt } from '../../session/convert-prompt.js';
import type { DaemonContext } from '../daemon-context.js';
import { RpcError } from '../wire/rpc-error.js';
import { realFolderHere } from '../../config/served-folders.js';
import { noDaemonForFolder } from '../folder-errors.js';
import { findServingDaemons, storeSharing } from '../serving-daemons.js';

/**
 * `session/prompt` with `_meta.agentd.queue: true`: checks what would make the job fail
 * wherever it runs (an unknown session, content no model takes, a folder no live daemon
 * serves), queues it, and answers at
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
  const { cwd } = await daemon.sessions.record(params.sessionId);
  // Never queued to wait forever: some live daemon must serve the folder (this one, without a query).
  if (!daemon.folders.serves(cwd) && (await findServingDaemons(daemon, cwd)).length === 0) {
    throw noDaemonForFolder('session/prompt', params.sessionId, cwd, daemon.folders.roots, storeSharing(daemon));
  }
  const { jobId } = await daemon.work.queuePrompt({ sessionId: params.sessionId, prompt: params.prompt, cwd: realFolderHere(cwd) });
  return { stopReason: 'end_turn', _meta: { agentd: { outcome: 'queued', jobId, queue: daemon.work.kind } } };
}
