import type { ParamsOf, ResultOf } from '../../../protocol/index.js';
import type { DaemonContext } from '../daemon-context.js';
import { RequestNotTakenError, type RoutedMethod } from '../session-routing.js';

/**
 * A request for a session goes to the daemon that owns it, or runs here when none other
 * does. When the owner it went to lost the session before taking it (it died and its
 * lease ended), it is routed again: to the session's new owner, or here, where the turn
 * waits for the dead owner's lease if it has not expired yet.
 */
export async function routeOrRunHere<M extends RoutedMethod>(
  daemon: DaemonContext,
  method: M,
  params: ParamsOf<M> & { sessionId: string },
  signal: AbortSignal,
  here: () => Promise<ResultOf<M>>,
): Promise<ResultOf<M>> {
  for (;;) {
    const owner = await daemon.routing.ownerElsewhere(params.sessionId);
    if (owner === undefined) return here();
    try {
      return await daemon.routing.forward(owner, method, params, signal);
    } catch (error) {
      if (!(error instanceof RequestNotTakenError)) throw error;
      daemon.log(`session ${params.sessionId}: daemon ${error.owner} went away before taking a ${method}; routing it again`);
    }
  }
}
