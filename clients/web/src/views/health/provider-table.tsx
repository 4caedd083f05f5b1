import { formatTime } from '../format/format-time.js';
import type { ProviderHealth } from './health-types.js';
import { HealthSection } from './health-section.js';

const KEY_SOURCE: Record<ProviderHealth['keySource'], string> = {
  env: 'from the environment',
  config: 'from the config',
  login: 'from a login',
  none: 'missing',
  not_needed: 'not needed',
};

const BREAKER: Record<ProviderHealth['breaker']['state'], string> = { closed: 'closed', open: 'open', half_open: 'half open' };

/** Providers configured (user's config and each project's), whether they have a key, and their circuit breakers. */
export function ProviderTable({ providers }: { providers: readonly ProviderHealth[] }) {
  if (providers.length === 0) {
    return (
      <HealthSection id="health-providers" title="Providers">
        <p>No providers are configured.</p>
      </HealthSection>
    );
  }
  return (
    <HealthSection id="health-providers" title="Providers">
      <table class="health-table" aria-labelledby="health-providers">
        <thead>
          <tr>
            <th scope="col">Provider</th>
            <th scope="col">Type</th>
            <th scope="col">Configured in</th>
            <th scope="col">Key</th>
            <th scope="col">Base URL</th>
            <th scope="col">Circuit breaker</th>
          </tr>
        </thead>
        <tbody>
          {providers.map((p) => (
            <tr key={`${p.project ?? ''}\u0000${p.id}`}>
              <th scope="row">{p.id}</th>
              <td>{p.type}</td>
              <td>{p.project ?? 'user config'}</td>
              <td class={p.hasKey || p.keySource === 'not_needed' ? 'health-ok' : 'health-bad'}>{KEY_SOURCE[p.keySource]}</td>
              <td>{p.baseUrl ?? 'default'}</td>
              <td class={p.breaker.state === 'closed' ? 'health-ok' : 'health-bad'}>
                {BREAKER[p.breaker.state]}
                {p.breaker.consecutiveFailures > 0 ? `, ${p.breaker.consecutiveFailures} failure${p.breaker.consecutiveFailures === 1 ? '' : 's'} in a row` : ''}
                {p.breaker.openedAt ? (
                  <>
                    {', opened '}
                    <time dateTime={p.breaker.openedAt}>{formatTime(p.breaker.openedAt)}</time>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </HealthSection>
  );
}
