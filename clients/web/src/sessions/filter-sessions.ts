import type { SessionOverview, SessionOverviewState } from '../../../../protocol/index.js';

/** What the sessions view narrows the list by; empty fields do not narrow. */
export interface SessionFilter {
  cwd: string;
  state: SessionOverviewState | '';
  query: string;
}

export const NO_FILTER: SessionFilter = { cwd: '', state: '', query: '' };

/** The sessions that pass the filter, in the list's order: the project folder, the state, and the title containing the query (any case). */
export function filterSessions(list: readonly SessionOverview[], filter: SessionFilter): SessionOverview[] {
  const query = filter.query.trim().toLowerCase();
  return list.filter(
    (session) =>
      (filter.cwd === '' || session.cwd === filter.cwd) &&
      (filter.state === '' || session.state === filter.state) &&
      (query === '' || (session.title ?? '').toLowerCase().includes(query)),
  );
}

/** The project folders in the list, sorted, for the project filter. */
export function projectsOf(list: readonly SessionOverview[]): string[] {
  return [...new Set(list.map((session) => session.cwd))].sort();
}
