import type { SandboxHealth } from './health-types.js';

/** Which sandbox the bash tool runs in, whether it works here, and the paths it hides. */
export function SandboxSummary({ sandbox }: { sandbox: SandboxHealth }) {
  const kind = sandbox.kind === 'bubblewrap' ? 'bubblewrap' : 'no sandbox';
  return (
    <section class="health-sandbox" aria-labelledby="health-sandbox-heading">
      <h2 id="health-sandbox-heading">Sandbox</h2>
      <p class={sandbox.available ? 'health-ok' : 'health-bad'}>
        {`${kind}, ${sandbox.available ? 'available' : 'not available'}: ${sandbox.detail}`}
      </p>
      {sandbox.hidden.length > 0 ? (
        <>
          <p id="health-sandbox-hidden">Hidden from commands:</p>
          <ul aria-labelledby="health-sandbox-hidden">
            {sandbox.hidden.map((path) => (
              <li key={path}>
                <code>{path}</code>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>It hides no paths.</p>
      )}
    </section>
  );
}
