import { useSignal } from '@preact/signals';
import type { SessionActions } from './session-actions.js';

/**
 * The message box. Idle: Enter sends it as a prompt (Shift+Enter is a new line). While a turn
 * runs: Steer (seen at the next safe point), Follow-up (after the turn) and Stop.
 */
export function PromptBox({ running, actions, onError }: { running: boolean; actions: SessionActions; onError(message: string): void }) {
  const text = useSignal('');
  const send = (how: 'prompt' | 'steer' | 'followUp'): void => {
    const value = text.value.trim();
    if (value === '') return;
    text.value = '';
    actions[how](value).catch((error: unknown) => onError(`${how} failed: ${error instanceof Error ? error.message : String(error)}`));
  };
  return (
    <form
      class="prompt"
      onSubmit={(event) => {
        event.preventDefault();
        if (!running) send('prompt');
      }}
    >
      <label for="prompt-text">Message</label>
      <textarea
        id="prompt-text"
        rows={3}
        value={text.value}
        placeholder={running ? 'Steer the running turn, or queue a follow-up' : 'Ask the agent (Enter sends, Shift+Enter for a new line)'}
        onInput={(event) => (text.value = event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
          event.preventDefault();
          if (!running) send('prompt');
        }}
      />
      <div class="buttons">
        {running ? (
          <>
            <button type="button" onClick={() => send('steer')}>
              Steer
            </button>
            <button type="button" onClick={() => send('followUp')}>
              Follow-up
            </button>
            <button type="button" class="danger" onClick={() => void actions.abort().catch((error: unknown) => onError(`stop failed: ${String(error)}`))}>
              Stop
            </button>
          </>
        ) : (
          <button type="submit">Send</button>
        )}
      </div>
    </form>
  );
}
