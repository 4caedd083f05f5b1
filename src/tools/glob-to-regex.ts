/**
 * Compiles a path glob to an anchored RegExp (a small stand-in for `path.matchesGlob`,
 * which is experimental in Node 20): `**` any number of path segments (`src/**` also
 * matches `src`), `*` and `?` within one segment, `[abc]` / `[!abc]` classes, `{a,b}`
 * alternatives (nestable), `\x` a literal character.
 */
export function globToRegex(glob: string): RegExp {
  let out = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i] as string;
    if (c === '\\' && i + 1 < glob.length) {
      out += escapeChar(glob[i + 1] as string);
      i += 1;
    } else if (c === '*' && glob[i + 1] === '*') {
      const atStart = i === 0 || glob[i - 1] === '/';
      const next = glob[i + 2];
      if (atStart && next === '/') {
        out += '(?:.*/)?';
        i += 2;
      } else if (glob[i - 1] === '/' && next === undefined) {
        out = `${out.slice(0, -1)}(?:/.*)?`;
        i += 1;
      } else {
        out += '.*';
        i += 1;
      }
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) out += '\\[';
      else {
        const body = glob.slice(i + 1, close);
        const negated = body.startsWith('!') || body.startsWith('^');
        const chars = (negated ? body.slice(1) : body).replace(/\\/g, '\\\\').replace(/\]/g, '\\]');
        out += negated ? `[^/${chars}]` : `[${chars}]`;
        i = close;
      }
    } else if (c === '{') {
      out += '(?:';
      depth += 1;
    } else if (c === '}' && depth > 0) {
      out += ')';
      depth -= 1;
    } else if (c === ',' && depth > 0) out += '|';
    else out += escapeChar(c);
  }
  // An unclosed `{` is taken literally rather than producing an invalid expression.
  if (depth > 0) return new RegExp(`^${escapeAll(glob)}$`);
  return new RegExp(`^${out}$`);
}

function escapeChar(c: string): string {
  return /[.*+?^${}()|[\]\\]/.test(c) ? `\\${c}` : c;
}

function escapeAll(text: string): string {
  return [...text].map(escapeChar).join('');
}

/**
 * Whether a path (relative, `/`-separated) matches a glob the way .gitignore and ripgrep
 * read it: a glob without a `/` matches the file name at any depth, one with a `/` the
 * whole relative path.
 */
export function pathMatchesGlob(relativePath: string, glob: string): boolean {
  return globMatcher(glob)(relativePath);
}

/** pathMatchesGlob with the expression compiled once, for matching many paths. */
export function globMatcher(glob: string): (relativePath: string) => boolean {
  const pattern = glob.replace(/^\.\//, '');
  if (!pattern.includes('/')) {
    const name = globToRegex(pattern);
    return (relativePath) => name.test(relativePath.slice(relativePath.lastIndexOf('/') + 1));
  }
  const full = globToRegex(pattern.replace(/^\//, ''));
  return (relativePath) => full.test(relativePath);
}
