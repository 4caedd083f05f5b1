/**
 * A pattern as the matcher sees it. Rule patterns, hook tool patterns and globs are
 * compiled to this instead of a RegExp: V8's backtracking engine takes exponential time on
 * `a*a*a*…b` against a long name, and a project's deny rule or a model's glob must never
 * freeze the daemon.
 */
export type WildcardPiece =
  /**
   * Exactly one character (a UTF-16 code unit, as RegExp's `.` without `u`) passing
   * `test`; `code` is set when only that one character passes (a fast path).
   */
  | { kind: 'char'; test: (c: number) => boolean; code?: number }
  /** Any number of characters (none included), each passing `test`. */
  | { kind: 'any'; test: (c: number) => boolean }
  /** The pieces one after another. */
  | { kind: 'seq'; pieces: WildcardPiece[] }
  /** Exactly one of the options. */
  | { kind: 'alt'; options: WildcardPiece[] }
  /** The piece, or nothing. */
  | { kind: 'opt'; piece: WildcardPiece };

/** A compiled pattern; `test` is anchored at both ends, like `^…$`. */
export interface WildcardMatcher {
  test(text: string): boolean;
}

/** `code` is the literal character, or -1 when `test` decides. */
type State =
  | { kind: 'char'; test: (c: number) => boolean; code: number; next: number }
  | { kind: 'split'; next: number[] }
  | { kind: 'match' };

/** A single literal character. */
export function literalChar(c: string): WildcardPiece {
  const code = c.charCodeAt(0);
  return { kind: 'char', test: (x) => x === code, code };
}

/** `text` literally, as a sequence of characters. */
export function literalText(text: string): WildcardPiece {
  return { kind: 'seq', pieces: text.split('').map(literalChar) };
}

/**
 * Compiles a pattern to a Thompson NFA and matches by simulating every state at once:
 * time O(text × pattern), no backtracking, whatever the pattern.
 */
export function compileWildcard(pattern: WildcardPiece): WildcardMatcher {
  const states: State[] = [{ kind: 'match' }];
  const add = (state: State): number => states.push(state) - 1;
  const compile = (piece: WildcardPiece, next: number): number => {
    switch (piece.kind) {
      case 'char':
        return add({ kind: 'char', test: piece.test, code: piece.code ?? -1, next });
      case 'any': {
        const loop = add({ kind: 'split', next: [] });
        const step = add({ kind: 'char', test: piece.test, code: -1, next: loop });
        (states[loop] as { next: number[] }).next = [step, next];
        return loop;
      }
      case 'seq':
        return piece.pieces.reduceRight((after, p) => compile(p, after), next);
      case 'alt':
        return add({ kind: 'split', next: piece.options.map((o) => compile(o, next)) });
      case 'opt':
        return add({ kind: 'split', next: [compile(piece.piece, next), next] });
    }
  };
  const start = compile(pattern, 0);
  return { test: simulator(states, start) };
}

/**
 * Runs the NFA over a text. Each state's epsilon closure (the character-reading and match
 * states reachable without reading) is computed once, on first use; a step is then one
 * test per live state plus copying closures, with no recursion and no allocation per step.
 */
function simulator(states: State[], start: number): (text: string) => boolean {
  const closures: Array<Int32Array | undefined> = new Array(states.length);
  const closure = (from: number): Int32Array => {
    let found = closures[from];
    if (found) return found;
    const seen = new Set<number>();
    const out: number[] = [];
    const stack = [from];
    while (stack.length > 0) {
      const s = stack.pop() as number;
      if (seen.has(s)) continue;
      seen.add(s);
      const state = states[s] as State;
      if (state.kind === 'split') for (let i = state.next.length - 1; i >= 0; i -= 1) stack.push(state.next[i] as number);
      else out.push(s);
    }
    found = Int32Array.from(out);
    closures[from] = found;
    return found;
  };
  return (text) => {
    // `mark[i] === step` says state i is already in the set being built for this step.
    const mark = new Int32Array(states.length).fill(-1);
    let current = new Int32Array(states.length);
    let next = new Int32Array(states.length);
    let size = 0;
    for (const s of closure(start)) {
      mark[s] = 0;
      current[size++] = s;
    }
    let step = 0;
    for (let at = 0; at < text.length; at += 1) {
      const c = text.charCodeAt(at);
      step += 1;
      let nextSize = 0;
      for (let i = 0; i < size; i += 1) {
        const state = states[current[i] as number] as State;
        if (state.kind !== 'char' || (state.code >= 0 ? state.code !== c : !state.test(c))) continue;
        const reached = closures[state.next] ?? closure(state.next);
        for (let j = 0; j < reached.length; j += 1) {
          const t = reached[j] as number;
          if (mark[t] === step) continue;
          mark[t] = step;
          next[nextSize++] = t;
        }
      }
      if (nextSize === 0) return false;
      [current, next] = [next, current];
      size = nextSize;
    }
    for (let i = 0; i < size; i += 1) if (states[current[i] as number]?.kind === 'match') return true;
    return false;
  };
}

/** Splits `text` on unescaped `*` into literal runs and `any(test)` pieces (`\*` is a literal star when `escapes`). */
export function starPattern(text: string, test: (c: number) => boolean, escapes: boolean): WildcardPiece {
  const pieces: WildcardPiece[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (escapes && c === '\\' && text[i + 1] === '*') {
      pieces.push(literalChar('*'));
      i += 1;
    } else pieces.push(c === '*' ? { kind: 'any', test } : literalChar(c));
  }
  return { kind: 'seq', pieces };
}
