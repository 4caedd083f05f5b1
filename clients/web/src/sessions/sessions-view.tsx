import { useSignal } from '@preact/signals';
import type { SessionsStore } from './sessions-store.js';
import { filterSessions, NO_FILTER, projectsOf } from './filter-sessions.js';
import { SessionFilters } from './session-filters.js';
import { SessionsTable } from './sessions-table.js';

/** Every session across projects, live, with filters by project, state and title. */
export function SessionsView({ store }: { store: SessionsStore }) {
  const filter = useSignal(NO_FILTER);
  const all = store.sessions.value;
  const shown = filterSessions(all, filter.value);
  return (
    <section aria-labelledby="sessions-heading">
      <h1 id="sessions-heading">Sessions</h1>
      <SessionFilters filter={filter.value} projects={projectsOf(all)} onChange={(next) => (filter.value = next)} />
      {store.problem.value ? <p role="alert">{store.problem.value}</p> : null}
      {store.loaded.value ? (
        <>
          <p class="count">
            {shown.length === all.length ? countOf(all.length) : `${shown.length} of ${countOf(all.length)}`}
          </p>
          <SessionsTable sessions={shown} now={Date.now()} />
        </>
      ) : (
        <p>Loading sessions…</p>
      )}
    </section>
  );
}

function countOf(sessions: number): string {
  return sessions === 1 ? '1 session' : `${sessions} sessions`;
}
