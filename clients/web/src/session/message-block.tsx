/** A user or agent message: its text as written (the page renders no HTML from the model). */
export function MessageBlock({ role, text }: { role: 'user' | 'agent'; text: string }) {
  return (
    <article class={`message message-${role}`} aria-label={role === 'user' ? 'You' : 'Agent'}>
      <div class="message-text">{text}</div>
    </article>
  );
}
