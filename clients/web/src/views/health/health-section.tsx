import type { ComponentChildren } from 'preact';

/** One part of the health view under its own heading, so a screen reader can jump between parts. */
export function HealthSection({ id, title, children }: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section class="health-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
