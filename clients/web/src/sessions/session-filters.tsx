import type { SessionOverviewState } from '../../../../protocol/index.js';
import { projectName } from '../format/project-name.js';
import { SESSION_STATES, stateLabel } from '../format/state-label.js';
import type { SessionFilter } from './filter-sessions.js';

/** The project, state and title filters of the sessions list. */
export function SessionFilters({ filter, projects, onChange }: { filter: SessionFilter; projects: readonly string[]; onChange(filter: SessionFilter): void }) {
  return (
    <form class="filters" role="search" aria-label="Filter sessions" onSubmit={(event) => event.preventDefault()}>
      <div class="field">
        <label for="filter-project">Project</label>
        <select id="filter-project" value={filter.cwd} onChange={(event) => onChange({ ...filter, cwd: event.currentTarget.value })}>
          <option value="">All projects</option>
          {projects.map((cwd) => (
            <option key={cwd} value={cwd} title={cwd}>
              {projectName(cwd)}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-state">State</label>
        <select id="filter-state" value={filter.state} onChange={(event) => onChange({ ...filter, state: event.currentTarget.value as SessionOverviewState | '' })}>
          <option value="">Any state</option>
          {SESSION_STATES.map((state) => (
            <option key={state} value={state}>
              {stateLabel(state)}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-title">Search titles</label>
        <input id="filter-title" type="search" value={filter.query} onInput={(event) => onChange({ ...filter, query: event.currentTarget.value })} />
      </div>
    </form>
  );
}
