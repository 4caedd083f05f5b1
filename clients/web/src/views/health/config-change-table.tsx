import { formatTime } from '../format/format-time.js';
import type { ConfigChange } from './health-types.js';
import { HealthSection } from './health-section.js';

/** Config reloads and rejected edits, newest first, with the file and what was wrong. */
export function ConfigChangeTable({ changes }: { changes: readonly ConfigChange[] }) {
  if (changes.length === 0) {
    return (
      <HealthSection id="health-config" title="Configuration reloads">
        <p>No configuration changes since the daemon started.</p>
      </HealthSection>
    );
  }
  return (
    <HealthSection id="health-config" title="Configuration reloads">
      <table class="health-table" aria-labelledby="health-config">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">File</th>
            <th scope="col">Outcome</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((c, i) => (
            <tr key={`${c.at}-${i}`}>
              <td>
                <time dateTime={c.at}>{formatTime(c.at)}</time>
              </td>
              <td>
                <code>{c.file}</code>
              </td>
              <td class={c.outcome === 'rejected' ? 'health-bad' : 'health-ok'}>{c.outcome}</td>
              <td>{c.outcome === 'rejected' ? `${c.path ? `${c.path}: ` : ''}${c.problem ?? ''}` : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </HealthSection>
  );
}
