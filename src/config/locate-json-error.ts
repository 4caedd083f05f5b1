import { parse, ParseErrorCode, type ParseError } from 'jsonc-parser';

/** Where a JSON document first breaks the grammar, and why, in words. */
export interface JsonSyntaxError {
  /** 1-based line. */
  line: number;
  /** 1-based column, in UTF-16 code units like editors count. */
  column: number;
  message: string;
}

/**
 * Finds the first syntax error in `text` as strict JSON (RFC 8259: no comments, no
 * trailing commas), or undefined when it is valid. JSON.parse's own errors only
 * sometimes carry a position, and people need the line and column to fix a config file,
 * so jsonc-parser's scanner finds it; the words say what to change.
 */
export function locateJsonError(text: string): JsonSyntaxError | undefined {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return undefined;
  const { offset, message } = explain(text, first);
  const reason = offset >= text.length && !message.startsWith('unexpected end') ? `unexpected end of file: ${message}` : message;
  return { ...lineAndColumn(text, offset), message: reason };
}

/** The offset to point at and the words for one jsonc-parser error. */
function explain(text: string, error: ParseError): { offset: number; message: string } {
  const { offset, length } = error;
  const token = text.slice(offset, offset + length);
  const before = text.slice(0, offset).trimEnd();
  switch (error.error) {
    case ParseErrorCode.ValueExpected:
    case ParseErrorCode.PropertyNameExpected: {
      const close = text[offset];
      if (before.endsWith(',') && (close === '}' || close === ']')) return { offset, message: `trailing comma before "${close}"; remove the last comma` };
      if (error.error === ParseErrorCode.PropertyNameExpected) return { offset, message: 'expected a property name in double quotes' };
      return { offset, message: 'expected a value (a string in double quotes, number, true, false, null, object or array)' };
    }
    case ParseErrorCode.ColonExpected:
      return { offset, message: 'expected ":" after the property name' };
    case ParseErrorCode.CommaExpected: {
      if (/(^|[^0-9.eE+-])-?0$/.test(before) && /^\d/.test(token)) return { offset, message: 'invalid number: no leading zeros' };
      const inArray = innermostOpen(text, offset) === '[';
      return inArray
        ? { offset, message: 'expected "," or "]" after the array element (is a comma missing?)' }
        : { offset, message: 'expected "," or "}" after the property value (is a comma missing?)' };
    }
    case ParseErrorCode.CloseBraceExpected:
    case ParseErrorCode.CloseBracketExpected:
      return { offset, message: `unexpected end of file: add the closing "${error.error === ParseErrorCode.CloseBraceExpected ? '}' : ']'}"` };
    case ParseErrorCode.InvalidSymbol:
      if (token.startsWith("'")) {
        return { offset, message: before.endsWith('{') || before.endsWith(',') ? 'expected a property name in double quotes, not single quotes' : 'strings must use double quotes, not single quotes' };
      }
      if (/^[-\d]/.test(token)) return { offset, message: 'invalid number' };
      if (before !== '' && innermostOpen(text, offset) === undefined) return { offset, message: 'unexpected text after the end of the JSON document' };
      return { offset, message: 'expected a value (a string in double quotes, number, true, false, null, object or array)' };
    case ParseErrorCode.UnexpectedEndOfString: {
      // jsonc-parser points at the string's start; point at the character that ends it.
      // A raw newline or other control character ends the string token where it stands.
      const end = offset + length;
      if (end < text.length && text.charCodeAt(end) < 0x20) return { offset: end, message: 'control character inside a string; escape it (e.g. write a newline as \\n)' };
      return { offset: offset + length, message: 'unexpected end of file: unterminated string; add the closing double quote' };
    }
    case ParseErrorCode.InvalidEscapeCharacter:
      return { offset: offset + Math.max(0, token.indexOf('\\')), message: 'invalid escape; use \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX' };
    case ParseErrorCode.InvalidUnicode:
      return { offset: offset + Math.max(0, token.indexOf('\\u')), message: 'invalid \\u escape; it needs four hex digits' };
    case ParseErrorCode.UnexpectedEndOfNumber:
      return { offset, message: 'invalid number' };
    case ParseErrorCode.InvalidCommentToken:
    case ParseErrorCode.UnexpectedEndOfComment:
      return { offset, message: 'comments are not allowed in JSON; remove them' };
    case ParseErrorCode.InvalidCharacter:
      return { offset, message: 'control character inside a string; escape it (e.g. write a newline as \\n)' };
    default:
      return { offset, message: 'invalid JSON' };
  }
}

/** The bracket that encloses `offset` (`{` or `[`), ignoring strings; undefined at top level. */
function innermostOpen(text: string, offset: number): '{' | '[' | undefined {
  const stack: Array<'{' | '['> = [];
  let inString = false;
  for (let i = 0; i < offset; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') stack.push(c);
    else if (c === '}' || c === ']') stack.pop();
  }
  return stack.at(-1);
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
