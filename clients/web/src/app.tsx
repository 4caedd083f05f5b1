import type { Dashboard } from './dashboard.js';
import { SessionView } from './session/session-view.js';
import { SessionsView } from './sessions/sessions-view.js';
import { CostView } from './views/cost/cost-view.js';
import { HealthView } from './views/health/health-view.js';
import { SchedulesView } from './views/schedules/schedules-view.js';
import { ConnectionStatus } from './shell/connection-status.js';
import { LiveRegion } from './shell/live-region.js';
import { Navigation, type NavEntry } from './shell/navigation.js';
import type { Route } from './shell/route.js';

const NAV: readonly NavEntry[] = [
  { name: 'Sessions', view: 'sessions' },
  { name: 'Schedules', view: 'schedules' },
  { name: 'Health', view: 'health' },
  { name: 'Cost', view: 'cost' },
];

/** The page: header with navigation and connection state, the current view, the live region. */
export function App({ dashboard, route }: { dashboard: Dashboard; route: Route }) {
  return (
    <>
      <header class="top">
        <span class="brand">agentd</span>
        <Navigation entries={NAV} current={route.view} />
        <ConnectionStatus connection={dashboard.connection} />
      </header>
      <main>
        <CurrentView dashboard={dashboard} route={route} />
      </main>
      <LiveRegion />
    </>
  );
}

function CurrentView({ dashboard, route }: { dashboard: Dashboard; route: Route }) {
  const client = dashboard.connection.client.value;
  if (route.view === 'session') {
    const overview = dashboard.sessions.find(route.sessionId);
    if (!client || !dashboard.sessions.loaded.value) return <p>Waiting for agentd…</p>;
    if (!overview) return <p role="alert">No session {route.sessionId} is stored in agentd.</p>;
    const follower = dashboard.follow(overview.sessionId, overview.cwd);
    const questions = dashboard.permissions.questions.value.filter((question) => question.sessionId === overview.sessionId);
    return <SessionView key={overview.sessionId} overview={overview} follower={follower} client={client} questions={questions} />;
  }
  if (route.view === 'schedules' || route.view === 'health' || route.view === 'cost') {
    if (!client) return <p>Waiting for agentd…</p>;
    if (route.view === 'schedules') return <SchedulesView client={client} />;
    if (route.view === 'health') return <HealthView client={client} />;
    return <CostView client={client} />;
  }
  return <SessionsView store={dashboard.sessions} />;
}
