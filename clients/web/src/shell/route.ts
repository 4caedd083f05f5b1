import { signal, type Signal } from '@preact/signals';

/** Where the page is: one of the views, or one session. Hash routes, so the daemon serves one page for all. */
export type Route = { view: 'sessions' | 'schedules' | 'health' | 'cost' } | { view: 'session'; sessionId: string };

/** The route a location hash names; anything unknown is the sessions list. */
export function parseRoute(hash: string): Route {
  const [, first, second] = hash.replace(/^#/, '').split('/');
  if (first === 'session' && second) return { view: 'session', sessionId: decodeURIComponent(second) };
  if (first === 'schedules' || first === 'health' || first === 'cost') return { view: first };
  return { view: 'sessions' };
}

export function sessionHref(sessionId: string): string {
  return `#/session/${encodeURIComponent(sessionId)}`;
}

/** The current route, following the location's hash. */
export function createRouteSignal(): { route: Signal<Route>; dispose(): void } {
  const route = signal<Route>(parseRoute(location.hash));
  const onChange = (): void => {
    route.value = parseRoute(location.hash);
  };
  addEventListener('hashchange', onChange);
  return { route, dispose: () => removeEventListener('hashchange', onChange) };
}
