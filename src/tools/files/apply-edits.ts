import { ToolError } from '../tool-error.js';

/** One exact-text replacement. */
export interface TextEdit {
  /** Text to find; must occur exactly once unless `replaceAll`. */
  old: string;
  /** Replacement text. */
  new: string;
  /** Replace every occurrence instead of requiring exactly one. */
  replaceAll?: boolean;
}

const SNIPPET_CHARS = 300;

/**
 * Applies edits in order to `text` in memory; any failing edit throws and nothing is
 * applied (the caller writes only the final result). Replacement is literal: `$&` and
 * friends in `new` are not special.
 */
export function applyEdits(text: string, edits: TextEdit[], shown: string): string {
  let result = text;
  edits.forEach((edit, index) => {
    const which = edits.length > 1 ? `Edit ${index + 1} of ${edits.length}` : 'The edit';
    if (edit.old === '') throw new ToolError(`${which}: old is empty; quote the exact text to replace (use write to create a file).`);
    if (edit.old === edit.new) throw new ToolError(`${which}: old and new are identical, so there is nothing to change.`);
    const positions = findAll(result, edit.old);
    if (positions.length === 0) {
      throw new ToolError(
        `${which}: old text not found in ${shown}: ${quote(edit.old)}. ` +
          'It must match exactly, including whitespace and indentation; read the file again and copy the text from it.',
      );
    }
    if (positions.length > 1 && !edit.replaceAll) {
      const lines = positions.map((pos) => lineAt(result, pos));
      throw new ToolError(
        `${which}: old text matches ${positions.length} times in ${shown} (lines ${lines.join(', ')}). ` +
          'Include more surrounding lines to make it unique, or set replaceAll: true to change every occurrence.',
      );
    }
    result = result.split(edit.old).join(edit.new);
  });
  return result;
}

function findAll(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

function quote(snippet: string): string {
  const cut = snippet.length > SNIPPET_CHARS ? `${snippet.slice(0, SNIPPET_CHARS)}…` : snippet;
  return JSON.stringify(cut);
}
