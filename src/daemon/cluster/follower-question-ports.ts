import { createClientAsker } from '../../server/acp/ask-client-permission.js';
import type { DaemonContext } from '../../server/daemon-context.js';
import type { DaemonSessionRouting } from './daemon-session-routing.js';
import type { QuestionPorts } from './start-session-updates.js';

/**
 * How this daemon puts another daemon's question to its own clients: to every client
 * following the question's root session here, held open in the sessions' overview as its
 * own turns' questions are; and how it sends their answer back (the routing's pg-boss queue).
 */
export function followerQuestionPorts(daemon: Pick<DaemonContext, 'clients' | 'permissionQuestions'>, routing: DaemonSessionRouting): QuestionPorts {
  return {
    askHere: (root, question, signal) => {
      // The turn (and a sub-agent asking in it) runs elsewhere: the root is the session followed here, nobody here sent its prompt.
      const ask = createClientAsker(daemon.clients, () => undefined, () => root);
      return daemon.permissionQuestions.during(root, question, () => ask(question, signal));
    },
    reply: (to, reply) => routing.replyToQuestion(to, reply),
  };
}
