import type { SessionOverview } from '../../../../protocol/index.js';
import { formatUsd } from '../format/format-usd.js';
import { formatRelativeTime } from '../format/format-relative-time.js';
import { projectName } from '../format/project-name.js';
import { stateLabel } from '../format/state-label.js';
import { sessionHref } from '../shell/route.js';

/** One session in the list: its title links to the session. */
export function SessionRow({ session, now }: { session: SessionOverview; now: number }) {
  return (
    <tr data-session-id={session.sessionId}>
      <td>
        <a href={sessionHref(session.sessionId)}>{session.title ?? 'Untitled session'}</a>
        {session.pendingPermission ? <div class="row-note">Asks: {session.pendingPermission.title}</div> : null}
        {session.lastError ? <div class="row-note row-error">{session.lastError}</div> : null}
      </td>
      <td title={session.cwd}>{projectName(session.cwd)}</td>
      <td>
        <span class={`state state-${session.state}`}>{stateLabel(session.state)}</span>
      </td>
      <td>{session.mode}</td>
      <td>{session.model ?? 'default'}</td>
      <td class="number">{formatUsd(session.costUsd)}</td>
      <td>
        <time dateTime={session.updatedAt} title={session.updatedAt}>
          {formatRelativeTime(session.updatedAt, now)}
        </time>
      </td>
    </tr>
  );
}
