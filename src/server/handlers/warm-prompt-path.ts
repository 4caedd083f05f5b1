import { methodsByName } from '../../../protocol/index.js';
import type { Session } from '../../session/session.js';

/**
 * Once `session/new` is answered, and while the user types the first prompt: what that
 * prompt would do first on this daemon, done now. Its handler's module is loaded, a prompt
 * of the same shape goes through the method's schema (zod builds each schema's fast path
 * on its first parse), and the session warms up (Session.warmUp: the model's connection,
 * the tool dispatch, the system prompt and tool specs). It starts a little after the
 * answer, so that a prompt sent right behind it runs alone (it would do the same work
 * itself, and a warm-up in its way only makes it wait), and each step is its own turn of
 * the event loop, so a prompt that arrives meanwhile waits for one step at most.
 */
export function warmPromptPath(session: Session): void {
  setTimeout(() => {
    if (!session.awaitsFirstPrompt()) return;
    methodsByName.get('session/prompt')?.params.safeParse({ sessionId: session.id, prompt: [{ type: 'text', text: 'warm-up' }] });
    setImmediate(() => {
      void import('./session-prompt.js').then(
        () => session.warmUp(),
        () => session.warmUp(),
      );
    });
  }, WARM_UP_AFTER_MS).unref();
}

/** Longer than a client takes to send a prompt it had ready; far shorter than a person typing one. */
const WARM_UP_AFTER_MS = 30;
