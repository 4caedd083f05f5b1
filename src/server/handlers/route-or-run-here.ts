import type { ParamsOf, ResultOf } from '../../../protocol/index.js';
import type { DaemonContext } from '../daemon-context.js';
import { sessionTarget } from './session-target.js';
import { RequestNotTakenError, type RoutedMethod } from '../session-routing.js';

/**
 * A request for a session goes to the daemon that owns it, or, when nobody does and the
 * session's folder is outside this daemon's `cluster.roots`, to a daemon that serves it;
 * otherwise it runs here. When the daemon it went to could not take it (it died, or
 * another daemon took the session first), it is routed again: to the session's new owner,
 * another serving daemon, or here, where the turn waits for a dead owner's lease if it has not expired yet.
 */
export async function routeOrRunHere<M extends RoutedMethod>(
  daemon: DaemonContext,
  method: M,
  params: ParamsOf<M> & { sessionId: string },
  signal: AbortSignal,
  here: () => Promise<ResultOf<M>>,
): Promise<ResultOf<M>> {
  for (;;) {
    const target = await sessionTarget(daemon, method, params.sessionId);
    if (target === undefined) return here();
    try {
      return await daemon.routing.forward(target, method, params, signal);
    } catch (error) {
      if (!(error instanceof RequestNotTakenError)) throw error;
      daemon.log(`session ${params.sessionId}: daemon ${error.owner} went away before taking a ${method}; routing it again`);
    }
  }
}
