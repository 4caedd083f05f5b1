import type { PlanEntry } from '../../../../protocol/index.js';

const MARK = { pending: '○', in_progress: '◐', completed: '●' } as const;

/** The agent's current plan, each task with its status. */
export function PlanView({ entries }: { entries: readonly PlanEntry[] }) {
  return (
    <section class="plan" aria-label="Plan">
      <h2>Plan</h2>
      <ol>
        {entries.map((entry, index) => (
          <li key={index} class={`plan-${entry.status}`}>
            <span aria-hidden="true">{MARK[entry.status]} </span>
            {entry.content}
            <span class="visually-hidden"> ({entry.status.replace('_', ' ')})</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
