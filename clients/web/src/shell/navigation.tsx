import type { Route } from './route.js';

/** One entry of the navigation: the view's name (also its heading) and its route. */
export interface NavEntry {
  name: string;
  view: Route['view'];
}

/** The views' links; the current one is marked for assistive technology. */
export function Navigation({ entries, current }: { entries: readonly NavEntry[]; current: Route['view'] }) {
  return (
    <nav aria-label="Views">
      <ul>
        {entries.map((entry) => (
          <li key={entry.view}>
            <a href={`#/${entry.view}`} aria-current={entry.view === current || (current === 'session' && entry.view === 'sessions') ? 'page' : undefined}>
              {entry.name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
