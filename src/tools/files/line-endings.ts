/** A text file split into its content and the encoding details to write back. */
export interface NormalisedText {
  /** Content without BOM, with LF line endings when the file used CRLF throughout. */
  text: string;
  /** The file started with a UTF-8 byte order mark. */
  bom: boolean;
  /** Every line ending in the file was CRLF (so `text` was converted to LF). */
  crlf: boolean;
}

const BOM = '\uFEFF';

/**
 * Normalises a file for matching: the model quotes text with LF endings and no BOM.
 * A file with mixed endings is left as it is, so nothing is rewritten that was not edited.
 */
export function normaliseText(raw: string): NormalisedText {
  const bom = raw.startsWith(BOM);
  const body = bom ? raw.slice(1) : raw;
  const crlf = body.includes('\r\n') && !/(^|[^\r])\n/.test(body);
  return { text: crlf ? body.replace(/\r\n/g, '\n') : body, bom, crlf };
}

/** Puts a file's original BOM and line endings back. */
export function restoreText(text: string, like: Pick<NormalisedText, 'bom' | 'crlf'>): string {
  const body = like.crlf ? text.replace(/\r?\n/g, '\r\n') : text;
  return like.bom ? BOM + body : body;
}

/** Converts CRLF in a model-supplied snippet to LF, to match normalised text. */
export function toLf(snippet: string): string {
  return snippet.replace(/\r\n/g, '\n');
}
