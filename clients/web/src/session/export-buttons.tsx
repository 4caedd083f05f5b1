import { download, type SessionActions } from './session-actions.js';

/** Downloads the session as Markdown or JSON (`session/export`). */
export function ExportButtons({ actions, onError }: { actions: SessionActions; onError(message: string): void }) {
  const save = (format: 'markdown' | 'json'): void => {
    actions.exportAs(format).then(
      (file) => download(file.fileName, file.mimeType, file.content),
      (error: unknown) => onError(`export failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  };
  return (
    <div class="buttons" role="group" aria-label="Export">
      <button type="button" onClick={() => save('markdown')}>
        Export Markdown
      </button>
      <button type="button" onClick={() => save('json')}>
        Export JSON
      </button>
    </div>
  );
}
