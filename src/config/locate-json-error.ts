/** Where a JSON document first breaks the grammar, and why, in words. */
export interface JsonSyntaxError {
  /** 1-based line. */
  line: number;
  /** 1-based column, in UTF-16 code units like editors count. */
  column: number;
  message: string;
}

/**
 * Finds the first syntax error in `text` per RFC 8259, or undefined when it is valid.
 * JSON.parse's own errors only sometimes carry a position (Node 20: "Unexpected token
 * '}', ... is not valid JSON" has none), and people need the line and column to fix a
 * config file, so the grammar is walked again here when JSON.parse fails.
 */
export function locateJsonError(text: string): JsonSyntaxError | undefined {
  const scanner = new Scanner(text);
  try {
    scanner.document();
    return undefined;
  } catch (error) {
    if (!(error instanceof SyntaxFault)) throw error;
    return { ...lineAndColumn(text, error.offset), message: error.message };
  }
}

class SyntaxFault extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

class Scanner {
  #pos = 0;
  constructor(private readonly text: string) {}

  document(): void {
    this.#space();
    this.#value();
    this.#space();
    if (this.#pos < this.text.length) this.#fail('unexpected text after the end of the JSON document');
  }

  #value(): void {
    const c = this.text[this.#pos];
    if (c === '{') return this.#object();
    if (c === '[') return this.#array();
    if (c === '"') return this.#string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.#number();
    for (const literal of ['true', 'false', 'null']) {
      if (this.text.startsWith(literal, this.#pos)) {
        this.#pos += literal.length;
        return;
      }
    }
    if (c === "'") this.#fail('strings must use double quotes, not single quotes');
    this.#fail('expected a value (a string in double quotes, number, true, false, null, object or array)');
  }

  #object(): void {
    this.#pos++;
    this.#space();
    if (this.text[this.#pos] === '}') {
      this.#pos++;
      return;
    }
    for (;;) {
      this.#space();
      const c = this.text[this.#pos];
      if (c === '}') this.#fail('trailing comma before "}"; remove the last comma');
      if (c !== '"') this.#fail('expected a property name in double quotes');
      this.#string();
      this.#space();
      if (this.text[this.#pos] !== ':') this.#fail('expected ":" after the property name');
      this.#pos++;
      this.#space();
      this.#value();
      this.#space();
      const next = this.text[this.#pos];
      if (next === '}') {
        this.#pos++;
        return;
      }
      if (next !== ',') this.#fail('expected "," or "}" after the property value (is a comma missing?)');
      this.#pos++;
    }
  }

  #array(): void {
    this.#pos++;
    this.#space();
    if (this.text[this.#pos] === ']') {
      this.#pos++;
      return;
    }
    for (;;) {
      this.#space();
      if (this.text[this.#pos] === ']') this.#fail('trailing comma before "]"; remove the last comma');
      this.#value();
      this.#space();
      const next = this.text[this.#pos];
      if (next === ']') {
        this.#pos++;
        return;
      }
      if (next !== ',') this.#fail('expected "," or "]" after the array element (is a comma missing?)');
      this.#pos++;
    }
  }

  #string(): void {
    this.#pos++;
    for (;;) {
      const c = this.text[this.#pos];
      if (c === undefined) this.#fail('unterminated string; add the closing double quote');
      if (c === '"') {
        this.#pos++;
        return;
      }
      if (c < ' ') this.#fail('control character inside a string; escape it (e.g. write a newline as \\n)');
      if (c === '\\') {
        const escape = this.text[this.#pos + 1];
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.#pos + 2, this.#pos + 6))) {
            this.#fail('invalid \\u escape; it needs four hex digits');
          }
          this.#pos += 6;
          continue;
        }
        if (escape === undefined || !'"\\/bfnrt'.includes(escape)) {
          this.#fail('invalid escape; use \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX');
        }
        this.#pos += 2;
        continue;
      }
      this.#pos++;
    }
  }

  #number(): void {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.#pos, this.#pos + 400));
    if (match === null) this.#fail('invalid number');
    this.#pos += match[0].length;
    const after = this.text[this.#pos];
    if (after !== undefined && /[0-9A-Za-z.]/.test(after)) this.#fail('invalid number');
  }

  #space(): void {
    while (this.#pos < this.text.length) {
      const c = this.text[this.#pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.#pos++;
      else if (c === '/' && (this.text[this.#pos + 1] === '/' || this.text[this.#pos + 1] === '*')) {
        this.#fail('comments are not allowed in JSON; remove them');
      } else return;
    }
  }

  #fail(message: string): never {
    const reason = this.#pos >= this.text.length ? `unexpected end of file: ${message}` : message;
    throw new SyntaxFault(this.#pos, reason);
  }
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
