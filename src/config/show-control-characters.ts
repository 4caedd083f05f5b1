/**
 * Every character a terminal acts on instead of printing, or that reorders what it prints:
 * C0 controls, DEL, C1 controls (U+0080–U+009F; some terminals take U+009B as CSI), the
 * bidi marks, embeddings, overrides and isolates (U+061C, U+200E/F, U+202A–U+202E,
 * U+2066–U+2069), and the Unicode line and paragraph separators.
 */
const CONTROL = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The part of CONTROL that JSON.stringify leaves as it is. */
const NOT_ESCAPED_BY_JSON = /[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The spellings a programmer reads at a glance (C and bash's `$'…'`; `\e` for ESC). */
const NAMED: Record<string, string> = {
  '\0': '\\0',
  '\x07': '\\a',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\v': '\\v',
  '\f': '\\f',
  '\r': '\\r',
  '\x1b': '\\e',
};

export interface ShowControlOptions {
  /** Characters written as they are, for the layout: `'\n'` for multi-line text, `'\n\t'` for an answer or a file. */
  keep?: string;
  /** How a newline not kept is shown (the default `\n`); a question title uses ` ⏎ `. */
  newline?: string;
}

/**
 * Text that came from a model, a tool, an MCP server or a repository, made safe to write
 * to a terminal: each control character (see CONTROL) is shown as an escape (`\r`, `\e`,
 * `\x9b`, `\u202e`) rather than acted on, so nothing it contains can move the cursor, erase
 * a line, set the window title, open a hyperlink or reorder the text around it. Every
 * terminal writer of agentd goes through this one function. A backslash is left as it is:
 * text that spells `\e` itself still shows nothing it does not say.
 */
export function showControlCharacters(text: string, options: ShowControlOptions = {}): string {
  const keep = options.keep ?? '';
  return text.replace(CONTROL, (char) => {
    if (keep.includes(char)) return char;
    if (char === '\n' && options.newline !== undefined) return options.newline;
    return NAMED[char] ?? escapeCode(char.charCodeAt(0));
  });
}

function escapeCode(code: number): string {
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `JSON.stringify(value)` for a terminal: JSON escapes C0 controls itself, and DEL, C1,
 * bidi and separator characters are written as `\uXXXX` too, which any JSON reader turns
 * back into the same text (nothing is lost, unlike showControlCharacters).
 */
export function jsonForTerminal(value: unknown, space?: number): string {
  // C0 is left out: inside strings JSON has escaped it already, outside it is the layout (`space`).
  return JSON.stringify(value, null, space).replace(NOT_ESCAPED_BY_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
