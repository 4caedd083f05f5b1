/** The agent's reasoning, collapsed until opened. */
export function ThoughtBlock({ text }: { text: string }) {
  return (
    <details class="thought">
      <summary>Thinking</summary>
      <div class="message-text">{text}</div>
    </details>
  );
}
