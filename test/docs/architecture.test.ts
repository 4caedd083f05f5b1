import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DOC = 'docs/ARCHITECTURE.md';

/** Every file git tracks, as repository-relative paths. */
const tracked: string[] = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((path) => path !== '');
const trackedFiles = new Set(tracked);
/** Every folder that holds a tracked file. */
const trackedFolders = new Set(tracked.flatMap((path) => path.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
const topLevel = new Set(tracked.map((path) => path.split('/')[0]!));

function existsInRepository(path: string): boolean {
  const clean = path.replace(/\/+$/, '');
  return clean === '' || trackedFiles.has(clean) || trackedFolders.has(clean);
}

function read(path: string): string {
  return readFileSync(join(root, path), 'utf8');
}

const doc = read(DOC);

/** The text of a `##`/`###` section whose heading starts with `title`, up to the next such heading. */
function section(text: string, title: string): { heading: string; body: string } {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^#{2,3} /.test(line) && line.replace(/^#+ /, '').startsWith(title));
  if (start < 0) throw new Error(`${DOC} has no section "${title}"`);
  const end = lines.findIndex((line, i) => i > start && /^#{2,3} /.test(line));
  return { heading: lines[start]!, body: lines.slice(start + 1, end < 0 ? undefined : end).join('\n') };
}

/** Markdown outside fenced code blocks. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '');
}

/** Relative link targets of a markdown text, without their #anchors. */
function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.replace(/#.*$/, ''));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

describe(`${DOC}: the worked example`, () => {
  const example = section(doc, 'Worked example:');
  const method = /`([^`]+)`/.exec(example.heading)?.[1];
  const listed = [...example.body.matchAll(/^- `([^`]+)`$/gm)].map((m) => m[1]!);

  it('names a method of the protocol and lists the files it touches', () => {
    expect(method).toBeDefined();
    expect(listed.length).toBeGreaterThan(0);
  });

  it('touches exactly the files it lists: no other file mentions its wire name or its descriptor', () => {
    const wireName = new RegExp(`${escapeRegExp(method!)}(?![\\w/])`);
    // The descriptor's exported name, from the protocol file that defines it.
    const definition = new RegExp(`export const (\\w+) = defineMethod\\(\\{\\s*method: '${escapeRegExp(method!)}'`);
    const descriptor = tracked
      .filter((path) => path.startsWith('protocol/') && path.endsWith('.ts'))
      .map((path) => definition.exec(read(path))?.[1])
      .find((name) => name !== undefined);
    expect(descriptor, `no descriptor for ${method} in protocol/`).toBeDefined();
    const descriptorName = new RegExp(`\\b${descriptor}\\b`);

    const mentioning = tracked.filter((path) => {
      if (path === DOC) return false;
      const text = read(path);
      return wireName.test(text) || descriptorName.test(text);
    });
    expect(mentioning.sort()).toEqual([...listed].sort());
  });
});

describe(`${DOC}: paths`, () => {
  it('names only paths that exist in the repository', () => {
    const named = [...prose(doc).matchAll(/`([^`\s]+)`/g)]
      .map((m) => m[1]!)
      // A path starts with a top-level entry of the repository (so `session/prompt` is a method, not a path).
      .filter((token) => topLevel.has(token.split('/')[0]!) && /^[\w.<>/-]+$/.test(token))
      // A placeholder (`src/providers/<protocol>/`) is checked up to the folder that holds it.
      .map((token) => (/[<]/.test(token) ? token.slice(0, token.indexOf('<')).replace(/[^/]*$/, '') : token));
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((path) => !existsInRepository(path))).toEqual([]);
  });

  it('links only to files of the repository', () => {
    const targets = relativeLinks(doc).map((target) => posix.normalize(posix.join(posix.dirname(DOC), target)));
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((path) => !existsInRepository(path))).toEqual([]);
  });
});

describe('comments and documents point inside the repository', () => {
  const sources = tracked.filter((path) => /\.(ts|md|lua|el|py)$/.test(path));
  // Built from parts so this file does not name what it looks for.
  const outside = [['DESIGN', 'md'], ['STYLE', 'md']].map((parts) => parts.join('.')).concat(['..', 'shared'].join('/'));

  it('no file names a design note or a folder that no clone contains', () => {
    const found = sources.flatMap((path) => {
      const text = read(path);
      return outside.filter((name) => text.includes(name)).map((name) => `${path}: ${name}`);
    });
    expect(found).toEqual([]);
  });

  it('no file cites an issue of the tracker by number: a clone has the code and its documents, not the tracker', () => {
    // Built from parts, like `outside` above.
    const issue = new RegExp(['\\bissue', '\\s+#?\\d'].join(''), 'i');
    const found = sources.flatMap((path) =>
      read(path)
        .split('\n')
        .flatMap((line, i) => (issue.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('every relative markdown link resolves to a file or folder of the repository', () => {
    const broken = sources
      .filter((path) => path.endsWith('.md'))
      .flatMap((path) =>
        relativeLinks(read(path))
          .map((target) => ({ target, resolved: normalize(join(dirname(path), target)).split('\\').join('/') }))
          .filter(({ resolved }) => !existsInRepository(resolved))
          .map(({ target }) => `${path}: ${target}`),
      );
    expect(broken).toEqual([]);
  });
});
