import type { SessionOverview } from '../../../../protocol/index.js';
import { SessionRow } from './session-row.js';

/** The sessions as a table, newest activity first. */
export function SessionsTable({ sessions, now }: { sessions: readonly SessionOverview[]; now: number }) {
  if (sessions.length === 0) return <p class="empty">No sessions match.</p>;
  return (
    <table class="sessions">
      <thead>
        <tr>
          <th scope="col">Title</th>
          <th scope="col">Project</th>
          <th scope="col">State</th>
          <th scope="col">Agent</th>
          <th scope="col">Model</th>
          <th scope="col">Cost</th>
          <th scope="col">Last activity</th>
        </tr>
      </thead>
      <tbody>
        {sessions.map((session) => (
          <SessionRow key={session.sessionId} session={session} now={now} />
        ))}
      </tbody>
    </table>
  );
}
