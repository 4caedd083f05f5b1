/**
 * A pattern as the matcher sees it. Rule patterns, hook tool patterns and globs are
 * compiled to this instead of a RegExp: V8's backtracking engine takes exponential time on
 * `a*a*a*…b` against a long name, and a project's deny rule or a model's glob must never
 * freeze the daemon.
 */
export type WildcardPiece =
  /** Exactly one character passing `test`. */
  | { kind: 'char'; test: (c: string) => boolean }
  /** Any number of characters (none included), each passing `test`. */
  | { kind: 'any'; test: (c: string) => boolean }
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

type State = { kind: 'char'; test: (c: string) => boolean; next: number } | { kind: 'split'; next: number[] } | { kind: 'match' };

/** A single literal character. */
export function literalChar(c: string): WildcardPiece {
  return { kind: 'char', test: (x) => x === c };
}

/** `text` literally, as a sequence of characters. */
export function literalText(text: string): WildcardPiece {
  return { kind: 'seq', pieces: [...text].map(literalChar) };
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
        return add({ kind: 'char', test: piece.test, next });
      case 'any': {
        const loop = add({ kind: 'split', next: [] });
        const step = add({ kind: 'char', test: piece.test, next: loop });
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
  return { test: (text) => simulate(states, start, text) };
}

function simulate(states: State[], start: number, text: string): boolean {
  // `seen[i] === generation` marks state i as already in the current set.
  const seen = new Int32Array(states.length).fill(-1);
  let generation = 0;
  let current: number[] = [];
  const close = (from: number, into: number[]): void => {
    const stack = [from];
    while (stack.length > 0) {
      const s = stack.pop() as number;
      if (seen[s] === generation) continue;
      seen[s] = generation;
      const state = states[s] as State;
      if (state.kind === 'split') stack.push(...state.next);
      else into.push(s);
    }
  };
  close(start, current);
  for (const c of text) {
    generation += 1;
    const next: number[] = [];
    for (const s of current) {
      const state = states[s] as State;
      if (state.kind === 'char' && state.test(c)) close(state.next, next);
    }
    if (next.length === 0) return false;
    current = next;
  }
  return current.some((s) => states[s]?.kind === 'match');
}

/** Splits `text` on unescaped `*` into literal runs and `any(test)` pieces (`\*` is a literal star when `escapes`). */
export function starPattern(text: string, test: (c: string) => boolean, escapes: boolean): WildcardPiece {
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
