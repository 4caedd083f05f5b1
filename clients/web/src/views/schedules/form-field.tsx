import type { ComponentChildren } from 'preact';

export interface FormFieldProps {
  /** The control's id; its label, hint and problem are tied to it. */
  id: string;
  label: string;
  hint?: string;
  /** What is wrong with the value (the form's check or the daemon's answer), shown beside it. */
  problem?: string | undefined;
  /** The control, rendered with `describedBy` as its aria-describedby and `invalid` as aria-invalid. */
  children: (aria: { describedBy: string | undefined; invalid: boolean }) => ComponentChildren;
}

/** A labelled control with its hint and, when there is one, its problem (announced as it appears). */
export function FormField({ id, label, hint, problem, children }: FormFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const problemId = problem ? `${id}-problem` : undefined;
  const describedBy = [hintId, problemId].filter(Boolean).join(' ') || undefined;
  return (
    <div class={problem ? 'form-field form-field-invalid' : 'form-field'}>
      <label for={id}>{label}</label>
      {children({ describedBy, invalid: Boolean(problem) })}
      {hint ? (
        <small id={hintId} class="form-hint">
          {hint}
        </small>
      ) : null}
      {problem ? (
        <small id={problemId} class="form-problem" role="alert">
          {problem}
        </small>
      ) : null}
    </div>
  );
}
