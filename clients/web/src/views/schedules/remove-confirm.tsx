import { useEffect, useRef } from 'preact/hooks';

export interface RemoveConfirmProps {
  name: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** "Remove X?" in place of the row's actions; focus moves to Cancel, the safe answer, and Escape cancels. */
export function RemoveConfirm({ name, busy, onConfirm, onCancel }: RemoveConfirmProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div
      class="remove-confirm"
      role="group"
      aria-label={`Confirm removing ${name}`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <span>{`Remove ${name}? A running run is cancelled; its history is kept.`}</span>
      <button type="button" class="danger" aria-disabled={busy} onClick={() => !busy && onConfirm()}>
        {`Yes, remove ${name}`}
      </button>
      <button type="button" ref={cancel} onClick={onCancel}>
        Keep it
      </button>
    </div>
  );
}
