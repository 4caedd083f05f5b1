import type { GeminiPartialArg } from './gemini-types.js';

/**
 * Builds one function call's arguments from streamed `partialArgs`
 * (FunctionCall.partialArgs / PartialArg in the Gemini API reference,
 * https://ai.google.dev/api/caching#FunctionCall, and `@google/genai`'s types; sent by
 * Gemini 3 when `toolConfig.functionCallingConfig.streamFunctionCallArguments` is set).
 *
 * Each PartialArg sets one leaf of the arguments object: `jsonPath` (RFC 9535, e.g.
 * `$.recipe.steps[0]`) names it and exactly one of `stringValue`, `numberValue`,
 * `boolValue`, `nullValue` gives its value. A string may come in pieces: while a piece
 * says `willContinue: true` the next piece for the same path is appended (recorded
 * streams close a string with an empty `stringValue` without `willContinue`).
 *
 * Anything it cannot place (a path it cannot read, a leaf without a value, a path
 * through a value that is not an object or array) is kept as `error` rather than
 * dropped, so the call is answered with an argument error instead of running with
 * arguments the model did not send.
 */
export class GeminiArgsAssembler {
  /** The arguments assembled so far. */
  readonly args: Record<string, unknown> = {};
  /** Why the arguments cannot be trusted; the first problem wins. */
  error: string | undefined;
  /** The path of a string whose last piece said `willContinue: true`. */
  private openString: string | undefined;

  /** True while a string value is waiting for its next piece. */
  get stringOpen(): boolean {
    return this.openString !== undefined;
  }

  add(partialArgs: readonly GeminiPartialArg[]): void {
    for (const arg of partialArgs) this.addOne(arg);
  }

  private addOne(arg: GeminiPartialArg): void {
    const path = typeof arg.jsonPath === 'string' ? arg.jsonPath : '';
    const continues = arg.willContinue === true;
    if (typeof arg.stringValue === 'string' && this.openString === path) {
      const segments = parseJsonPath(path);
      const current = segments === undefined ? undefined : readPath(this.args, segments);
      if (segments !== undefined && typeof current === 'string') {
        this.place(path, segments, current + arg.stringValue);
        this.openString = continues ? path : undefined;
        return;
      }
    }
    this.openString = undefined;
    const value = leafValue(arg);
    if (value === NO_VALUE) {
      this.fail(`a streamed argument at ${JSON.stringify(path)} carries no value`);
      return;
    }
    const segments = parseJsonPath(path);
    if (segments === undefined || segments.length === 0) {
      this.fail(`a streamed argument has a JSON path that cannot be read: ${JSON.stringify(path)}`);
      return;
    }
    if (this.place(path, segments, value) && typeof value === 'string' && continues) this.openString = path;
  }

  /** Sets the leaf, creating objects and arrays on the way as the next segment asks. */
  private place(path: string, segments: readonly Segment[], value: unknown): boolean {
    let container: Record<string, unknown> | unknown[] = this.args;
    for (let i = 0; i < segments.length - 1; i++) {
      const segment = segments[i]!;
      const next = segments[i + 1]!;
      if (!fits(container, segment)) return this.fail(`the streamed argument path ${JSON.stringify(path)} does not fit the arguments sent before it`);
      let child = getOwn(container, segment);
      if (child === undefined || child === null) {
        child = typeof next === 'number' ? [] : {};
        setOwn(container, segment, child);
      }
      if (typeof child !== 'object') return this.fail(`the streamed argument path ${JSON.stringify(path)} runs through a value that is not an object`);
      container = child as Record<string, unknown> | unknown[];
    }
    const leaf = segments[segments.length - 1]!;
    if (!fits(container, leaf)) return this.fail(`the streamed argument path ${JSON.stringify(path)} does not fit the arguments sent before it`);
    setOwn(container, leaf, value);
    return true;
  }

  private fail(message: string): false {
    this.error ??= message;
    return false;
  }
}

/** A member name or an array index. */
type Segment = string | number;

const NO_VALUE = Symbol('no value');

function leafValue(arg: GeminiPartialArg): unknown {
  if (typeof arg.stringValue === 'string') return arg.stringValue;
  if (typeof arg.numberValue === 'number') return arg.numberValue;
  if (typeof arg.boolValue === 'boolean') return arg.boolValue;
  // google.protobuf.NullValue is serialized as the string "NULL_VALUE" (or null).
  if (arg.nullValue !== undefined) return null;
  return NO_VALUE;
}

/**
 * The singular-query subset of RFC 9535 a leaf path needs: `$` followed by `.name`,
 * `['name']` / `["name"]` and `[index]` segments. Undefined when the path is anything
 * else. A shorthand name may also hold `-`, which RFC 9535 leaves to brackets, because
 * tool parameter names can have one and reading it costs nothing.
 */
export function parseJsonPath(path: string): Segment[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: Segment[] = [];
  let i = 1;
  while (i < path.length) {
    if (path[i] === '.') {
      const match = /^[A-Za-z_\u0080-\uffff][\w\u0080-\uffff-]*/u.exec(path.slice(i + 1));
      if (!match) return undefined;
      segments.push(match[0]);
      i += 1 + match[0].length;
    } else if (path[i] === '[') {
      const rest = path.slice(i);
      const index = /^\[(0|[1-9]\d*)\]/.exec(rest);
      const quoted = index ? undefined : /^\[(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\]/.exec(rest);
      if (index) {
        segments.push(Number(index[1]));
        i += index[0].length;
      } else if (quoted) {
        const name = unescapeName(quoted[1] ?? quoted[2] ?? '');
        if (name === undefined) return undefined;
        segments.push(name);
        i += quoted[0].length;
      } else {
        return undefined;
      }
    } else {
      return undefined;
    }
  }
  return segments;
}

const ESCAPES: Record<string, string> = { "'": "'", '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** RFC 9535 name escapes: JSON's, plus an escaped single quote. */
function unescapeName(raw: string): string | undefined {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] !== '\\') {
      out += raw[i];
      continue;
    }
    const next = raw[++i] ?? '';
    if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(raw.slice(i + 1, i + 5))) {
      out += String.fromCharCode(parseInt(raw.slice(i + 1, i + 5), 16));
      i += 4;
    } else if (ESCAPES[next] !== undefined) {
      out += ESCAPES[next];
    } else {
      return undefined;
    }
  }
  return out;
}

function fits(container: Record<string, unknown> | unknown[], segment: Segment): boolean {
  return Array.isArray(container) ? typeof segment === 'number' : typeof segment === 'string';
}

function readPath(root: Record<string, unknown>, segments: readonly Segment[]): unknown {
  let current: unknown = root;
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = getOwn(current as Record<string, unknown>, segment);
  }
  return current;
}

function getOwn(container: object, segment: Segment): unknown {
  return Object.prototype.hasOwnProperty.call(container, segment) ? (container as Record<Segment, unknown>)[segment] : undefined;
}

/** A data property, so a member named `__proto__` is an ordinary key and never a prototype. */
function setOwn(container: object, segment: Segment, value: unknown): void {
  Object.defineProperty(container, segment, { value, enumerable: true, configurable: true, writable: true });
}
