import type { PermissionQuestion } from './permission-store.js';

/** A permission question with one button per option the daemon offers (allow once, always, reject). */
export function PermissionPrompt({ question }: { question: PermissionQuestion }) {
  const { toolCall, options } = question.request;
  const title = toolCall.title ?? toolCall.toolCallId;
  const reason = toolCall._meta?.agentd?.reason;
  const answer = (optionId: string): void => {
    question.answer(optionId);
    // The question and its buttons leave the page: the keyboard's focus goes on to the message box.
    document.getElementById('prompt-text')?.focus();
  };
  return (
    <section class="permission" role="group" aria-label={`Permission: ${title}`}>
      <h2>Allow {title}?</h2>
      {reason ? <p>{reason}</p> : null}
      {toolCall.rawInput !== undefined ? <pre class="tool-input">{JSON.stringify(toolCall.rawInput, null, 2)}</pre> : null}
      <div class="buttons">
        {options.map((option) => (
          <button key={option.optionId} type="button" class={`option-${option.kind}`} onClick={() => answer(option.optionId)}>
            {option.name}
          </button>
        ))}
      </div>
    </section>
  );
}
