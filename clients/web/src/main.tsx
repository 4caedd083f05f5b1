import { render } from 'preact';
import { App } from './app.js';
import { Dashboard } from './dashboard.js';
import { createRouteSignal } from './shell/route.js';
import './styles.css';

// The daemon serves the page and its WebSocket from one origin; the login cookie goes with both.
const dashboard = new Dashboard(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/rpc`);
const { route } = createRouteSignal();
const root = document.getElementById('app');
if (root) {
  render(<Root />, root);
  dashboard.start();
}

function Root() {
  return <App dashboard={dashboard} route={route.value} />;
}
