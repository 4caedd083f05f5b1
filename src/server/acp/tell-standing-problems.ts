import type { Session } from '../../session/session.js';
import type { DaemonContext } from '../daemon-context.js';

/**
 * The problems a client opening `session` should know of (DaemonContext.problems), which
 * otherwise reach only the daemon's log: returned for the answer's `_meta.agentd.problems`,
 * and published as warning notices once the answer is out (a client knows the session id
 * only then; editors that render notices show them, `agentd run` prints the `_meta` list).
 */
export function tellStandingProblems(daemon: DaemonContext, session: Session): string[] {
  const problems = daemon.problems(session.record.cwd);
  if (problems.length > 0) {
    setImmediate(() => {
      for (const message of problems) session.emit({ type: 'notice', level: 'warning', message });
    });
  }
  return problems;
}
