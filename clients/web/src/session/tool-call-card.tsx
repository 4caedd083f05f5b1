import { contentText } from '../format/content-text.js';
import { DiffView } from './diff-view.js';
import type { ToolCallView } from './transcript-state.js';

const STATUS = { pending: 'pending', in_progress: 'running', completed: 'done', failed: 'failed' } as const;

/** A tool call: title, status, then its output and diffs (the raw input folded away). */
export function ToolCallCard({ call }: { call: ToolCallView }) {
  const status = call.status ?? 'pending';
  return (
    <article class={`tool tool-${status}`} aria-label={`Tool call: ${call.title}`}>
      <header>
        <span class="tool-title">{call.title}</span>
        <span class={`tool-status status-${status}`}>{STATUS[status]}</span>
      </header>
      {call.content.map((item, index) =>
        item.type === 'diff' ? (
          <DiffView key={index} path={item.path} oldText={item.oldText} newText={item.newText} />
        ) : item.type === 'content' ? (
          <pre key={index} class="tool-output">
            {contentText(item.content)}
          </pre>
        ) : (
          <p key={index} class="tool-output">
            Terminal {item.terminalId}
          </p>
        ),
      )}
      {call.rawInput !== undefined ? (
        <details class="tool-input">
          <summary>Input</summary>
          <pre>{JSON.stringify(call.rawInput, null, 2)}</pre>
        </details>
      ) : null}
    </article>
  );
}
