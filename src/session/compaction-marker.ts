import { z } from 'zod';
import type { CompactionResult } from '../loop/compact-context.js';
import { SUMMARY_ACKNOWLEDGEMENT } from '../loop/compact-context.js';
import type { ModelMessage } from '../providers/message.js';
import type { MessageRecord } from '../store/store.js';

/** Stored with the summary message (its meta's `agentd.compaction`): how to rebuild the compacted history on load. */
const CompactionMetaSchema = z.object({
  /** Messages before the summary, counted back from it, that stayed verbatim. */
  kept: z.int().min(0),
  /** An assistant acknowledgement followed the summary. */
  acknowledged: z.boolean(),
  /** How many older messages the summary replaced. */
  replaced: z.int().min(0),
});
type CompactionMeta = z.infer<typeof CompactionMetaSchema>;

/** A message meta that marks a compaction summary; other keys of it are not read here. */
const MarkedMetaSchema = z.looseObject({ agentd: z.looseObject({ compaction: CompactionMetaSchema }) });

/** The meta of the summary message written when a compaction is applied. */
export function compactionMarker(result: CompactionResult, history: readonly ModelMessage[]): Record<string, unknown> {
  const kept = history.length - result.replaced;
  const meta: CompactionMeta = { kept, acknowledged: result.newHistory.length - kept === 2, replaced: result.replaced };
  return { agentd: { compaction: meta } };
}

function markerOf(record: MessageRecord): CompactionMeta | undefined {
  // A marker of the wrong shape cannot say what was kept: the message counts as an ordinary one.
  const marked = MarkedMetaSchema.safeParse(record.meta);
  return marked.success ? marked.data.agentd.compaction : undefined;
}

/** True for the summary messages compaction stored (not shown when replaying to a client). */
export function isCompactionRecord(record: MessageRecord): boolean {
  return markerOf(record) !== undefined;
}

/**
 * The history a session continues with: everything when it was never compacted, else
 * the last summary, its acknowledgement, the messages kept verbatim before it and
 * everything after it. The store itself keeps every message.
 */
export function historyFromRecords(records: readonly MessageRecord[]): ModelMessage[] {
  const toMessage = (r: MessageRecord): ModelMessage =>
    (r.role === 'assistant' && r.model ? { role: r.role, content: r.content, model: r.model } : { role: r.role, content: r.content }) as ModelMessage;
  let last = -1;
  for (let i = records.length - 1; i >= 0; i--) {
    if (markerOf(records[i]!)) {
      last = i;
      break;
    }
  }
  if (last < 0) return records.map(toMessage);
  const marker = markerOf(records[last]!)!;
  const before = records.slice(0, last).filter((r) => !markerOf(r));
  const kept = marker.kept > 0 ? before.slice(-marker.kept) : [];
  return [
    toMessage(records[last]!),
    ...(marker.acknowledged ? [{ role: 'assistant', content: [{ type: 'text', text: SUMMARY_ACKNOWLEDGEMENT }] } as ModelMessage] : []),
    ...kept.map(toMessage),
    ...records.slice(last + 1).map(toMessage),
  ];
}
