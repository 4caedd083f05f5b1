import type { TranscriptItem } from './transcript-state.js';
import { TranscriptItemView } from './transcript-item-view.js';

/** The session's history and live turn, in order. */
export function TranscriptView({ items }: { items: readonly TranscriptItem[] }) {
  if (items.length === 0) return <p class="empty">Nothing has been said in this session yet.</p>;
  return (
    <div class="transcript" role="log" aria-label="Transcript" aria-live="off">
      {items.map((item) => (
        <TranscriptItemView key={item.id} item={item} />
      ))}
    </div>
  );
}
