import { methodsByName } from '../../../protocol/index.js';
import type { Session } from '../../session/session.js';

/**
 * Once `session/new` is answered, and while the user types the first prompt: what that
 * prompt would do first on this daemon, done now. Its handler's module is loaded, a prompt
 * of the same shape goes through the method's schema (zod builds each schema's fast path
 * on its first parse), and the session warms up (Session.warmUp: the model's connection,
 * the tool dispatch, the system prompt and tool specs). Each step is its own turn of the
 * event loop, so a prompt that arrives meanwhile waits for one step at most.
 */
export function warmPromptPath(session: Session): void {
  setImmediate(() => {
    methodsByName.get('session/prompt')?.params.safeParse({ sessionId: session.id, prompt: [{ type: 'text', text: 'warm-up' }] });
    setImmediate(() => {
      void import('./session-prompt.js').then(
        () => session.warmUp(),
        () => session.warmUp(),
      );
    });
  });
}
