import { sessionHref } from '../../shell/route.js';
import type { McpServerHealth } from './health-types.js';
import { HealthSection } from './health-section.js';

/** MCP servers of the user's config and of live sessions: state, tools offered, last error. */
export function McpServerTable({ servers }: { servers: readonly McpServerHealth[] }) {
  if (servers.length === 0) {
    return (
      <HealthSection id="health-mcp" title="MCP servers">
        <p>No MCP servers are running.</p>
      </HealthSection>
    );
  }
  return (
    <HealthSection id="health-mcp" title="MCP servers">
      <table class="health-table" aria-labelledby="health-mcp">
        <thead>
          <tr>
            <th scope="col">Server</th>
            <th scope="col">Session</th>
            <th scope="col">State</th>
            <th scope="col">Tools</th>
            <th scope="col">Last error</th>
          </tr>
        </thead>
        <tbody>
          {servers.map((s) => (
            <tr key={`${s.sessionId ?? ''}\u0000${s.name}`}>
              <th scope="row">{s.name}</th>
              <td>{s.sessionId ? <a href={sessionHref(s.sessionId)}>{s.sessionId}</a> : 'user config'}</td>
              <td class={s.state === 'running' ? 'health-ok' : s.state === 'failed' ? 'health-bad' : undefined}>{s.state}</td>
              <td>{s.tools}</td>
              <td>{s.lastError ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </HealthSection>
  );
}
