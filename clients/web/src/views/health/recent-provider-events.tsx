import { sessionHref } from '../../shell/route.js';
import { formatTime } from '../format/format-time.js';
import type { RecentProviderEvent } from './health-types.js';
import { HealthSection } from './health-section.js';

const KIND: Record<RecentProviderEvent['kind'], string> = {
  retry: 'retry',
  fallback: 'fallback',
  breaker_opened: 'breaker opened',
  breaker_closed: 'breaker closed',
};

/** Recent retries, fallbacks and breaker changes, newest first. */
export function RecentProviderEvents({ events }: { events: readonly RecentProviderEvent[] }) {
  if (events.length === 0) {
    return (
      <HealthSection id="health-recent" title="Recent retries and fallbacks">
        <p>No retries, fallbacks or breaker changes recently.</p>
      </HealthSection>
    );
  }
  return (
    <HealthSection id="health-recent" title="Recent retries and fallbacks">
      <table class="health-table" aria-labelledby="health-recent">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">What</th>
            <th scope="col">Provider</th>
            <th scope="col">Model</th>
            <th scope="col">Session</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e, i) => (
            <tr key={`${e.at}-${i}`}>
              <td>
                <time dateTime={e.at}>{formatTime(e.at)}</time>
              </td>
              <td>{KIND[e.kind]}</td>
              <td>{e.provider}</td>
              <td>{e.model ?? ''}</td>
              <td>{e.sessionId ? <a href={sessionHref(e.sessionId)}>{e.sessionId}</a> : ''}</td>
              <td>{e.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </HealthSection>
  );
}
