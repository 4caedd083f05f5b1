import { HealthSection } from './health-section.js';
import type { SandboxHealth } from './health-types.js';

/** Which sandbox the bash tool runs in, whether it works here, and the paths it hides (folded: often dozens). */
export function SandboxSummary({ sandbox }: { sandbox: SandboxHealth }) {
  const kind = sandbox.kind === 'bubblewrap' ? 'bubblewrap' : 'no sandbox';
  return (
    <HealthSection id="health-sandbox" title="Sandbox">
      <p class={sandbox.available ? 'health-ok' : 'health-bad'}>{`${kind}, ${sandbox.available ? 'available' : 'not available'}: ${sandbox.detail}`}</p>
      {sandbox.hidden.length > 0 ? (
        <details class="health-hidden">
          <summary>{`Hidden from commands: ${sandbox.hidden.length} path${sandbox.hidden.length === 1 ? '' : 's'}`}</summary>
          <ul>
            {sandbox.hidden.map((path) => (
              <li key={path}>
                <code>{path}</code>
              </li>
            ))}
          </ul>
        </details>
      ) : (
        <p>It hides no paths.</p>
      )}
    </HealthSection>
  );
}
