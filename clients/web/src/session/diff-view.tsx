import { lineDiff } from '../format/line-diff.js';

/** A file change as removed and added lines. */
export function DiffView({ path, oldText, newText }: { path: string; oldText: string | null | undefined; newText: string }) {
  const lines = lineDiff(oldText, newText);
  return (
    <figure class="diff">
      <figcaption>{oldText ? path : `${path} (new file)`}</figcaption>
      <pre aria-label={`Changes to ${path}`}>
        {lines.map((line, index) => (
          <div key={index} class={line.op === '+' ? 'diff-add' : line.op === '-' ? 'diff-del' : 'diff-same'}>
            {line.op} {line.text}
          </div>
        ))}
      </pre>
    </figure>
  );
}
