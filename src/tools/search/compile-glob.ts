import { compileWildcard, literalChar, literalText, type WildcardMatcher, type WildcardPiece } from './wildcard-matcher.js';

const SLASH = 0x2f;
const ANY = (): boolean => true;
const NOT_SLASH = (c: number): boolean => c !== SLASH;

/**
 * Compiles a path glob to an anchored matcher (a small stand-in for `path.matchesGlob`,
 * which is experimental in Node 20): `**` any number of path segments (`src/**` also
 * matches `src`), `*` and `?` within one segment, `[abc]` / `[!abc]` classes, `{a,b}`
 * alternatives (nestable), `\x` a literal character. Matching takes linear time in the
 * path for any glob (see compileWildcard): globs come from rules and from the model.
 */
export function compileGlob(glob: string): WildcardMatcher {
  // Each open `{` holds its options so far; the innermost is last.
  const groups: WildcardPiece[][][] = [[[]]];
  const seq = (): WildcardPiece[] => {
    const options = groups[groups.length - 1] as WildcardPiece[][];
    return options[options.length - 1] as WildcardPiece[];
  };
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i] as string;
    if (c === '\\' && i + 1 < glob.length) {
      seq().push(literalChar(glob[i + 1] as string));
      i += 1;
    } else if (c === '*' && glob[i + 1] === '*') {
      const atStart = i === 0 || glob[i - 1] === '/';
      const next = glob[i + 2];
      if (atStart && next === '/') {
        seq().push({ kind: 'opt', piece: { kind: 'seq', pieces: [{ kind: 'any', test: ANY }, literalChar('/')] } });
        i += 2;
      } else if (glob[i - 1] === '/' && next === undefined) {
        seq().pop();
        seq().push({ kind: 'opt', piece: { kind: 'seq', pieces: [literalChar('/'), { kind: 'any', test: ANY }] } });
        i += 1;
      } else {
        seq().push({ kind: 'any', test: ANY });
        i += 1;
      }
    } else if (c === '*') seq().push({ kind: 'any', test: NOT_SLASH });
    else if (c === '?') seq().push({ kind: 'char', test: NOT_SLASH });
    else if (c === '[' && glob.indexOf(']', i + 2) !== -1) {
      const close = glob.indexOf(']', i + 2);
      seq().push({ kind: 'char', test: charClass(glob.slice(i + 1, close)) });
      i = close;
    } else if (c === '{') groups.push([[]]);
    else if (c === '}' && groups.length > 1) {
      const options = groups.pop() as WildcardPiece[][];
      seq().push({ kind: 'alt', options: options.map((pieces) => ({ kind: 'seq', pieces })) });
    } else if (c === ',' && groups.length > 1) (groups[groups.length - 1] as WildcardPiece[][]).push([]);
    else seq().push(literalChar(c));
  }
  // An unclosed `{` is taken literally rather than as half an alternative.
  if (groups.length > 1) return compileWildcard(literalText(glob));
  return compileWildcard({ kind: 'seq', pieces: seq() });
}

/** `[abc]`, `[a-z]`, `[!abc]` / `[^abc]` (never `/`), with `\x` a literal x. */
function charClass(body: string): (c: number) => boolean {
  const negated = body.startsWith('!') || body.startsWith('^');
  const chars = (negated ? body.slice(1) : body).split('');
  const singles = new Set<number>();
  const ranges: Array<[number, number]> = [];
  for (let i = 0; i < chars.length; i += 1) {
    let c = chars[i] as string;
    if (c === '\\' && i + 1 < chars.length) c = chars[(i += 1)] as string;
    if (chars[i + 1] === '-' && i + 2 < chars.length) {
      ranges.push([c.charCodeAt(0), (chars[i + 2] as string).charCodeAt(0)]);
      i += 2;
    } else singles.add(c.charCodeAt(0));
  }
  const inClass = (c: number): boolean => singles.has(c) || ranges.some(([lo, hi]) => c >= lo && c <= hi);
  return negated ? (c) => c !== SLASH && !inClass(c) : inClass;
}

/**
 * Whether a path (relative, `/`-separated) matches a glob the way .gitignore and ripgrep
 * read it: a glob without a `/` matches the file name at any depth, one with a `/` the
 * whole relative path.
 */
export function pathMatchesGlob(relativePath: string, glob: string): boolean {
  return globMatcher(glob)(relativePath);
}

/** pathMatchesGlob with the pattern compiled once, for matching many paths. */
export function globMatcher(glob: string): (relativePath: string) => boolean {
  const pattern = glob.replace(/^\.\//, '');
  if (!pattern.includes('/')) {
    const name = compileGlob(pattern);
    return (relativePath) => name.test(relativePath.slice(relativePath.lastIndexOf('/') + 1));
  }
  const full = compileGlob(pattern.replace(/^\//, ''));
  return (relativePath) => full.test(relativePath);
}
