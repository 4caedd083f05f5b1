import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The layers, top to bottom: cli → server → session → loop → (providers, tools) → (store, config); protocol/ under all. */
const RANK: Record<string, number> = { cli: 6, server: 5, session: 4, loop: 3, providers: 2, tools: 2, scheduler: 2, store: 1, config: 1 };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Relative imports of a file (static and dynamic), resolved to .ts paths; `import type` ones only when asked. */
function importsOf(file: string, withTypes: boolean): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(import\s+type\s[^;]*?from\s+|export\s+type\s[^;]*?from\s+|from\s+|import\s*\(\s*|import\s+)'(\.[^']+)'/g)]
    .filter((m) => withTypes || !/^(import|export)\s+type\s/.test(m[1]!))
    .map((m) => m[2]!);
  return specs.map((spec) => resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
}

function layerOf(file: string): string {
  const rel = relative(root, file).split('/');
  return rel[0] === 'src' ? rel[1]! : rel[0]!;
}

const files = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'protocol')), ...sourceFiles(join(root, 'clients/typescript/src'))];
/** Every import, types included: a type from an upper layer is still a dependency on it. */
const graph = new Map(files.map((file) => [file, importsOf(file, true)]));
/** Imports that exist at run time: a cycle through `import type` alone is erased by tsc. */
const runtimeGraph = new Map(files.map((file) => [file, importsOf(file, false)]));

describe('layering', () => {
  it('no module imports from a layer above its own', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      const from = layerOf(file);
      for (const target of targets) {
        const to = layerOf(target);
        if (from === 'protocol' && to !== 'protocol') upward.push(`${relative(root, file)} → ${relative(root, target)} (protocol depends on nothing but zod)`);
        if (from === 'clients' && to !== 'protocol' && to !== 'clients') upward.push(`${relative(root, file)} → ${relative(root, target)} (clients depend only on protocol)`);
        if (RANK[from] !== undefined && RANK[to] !== undefined && RANK[to]! > RANK[from]!) upward.push(`${relative(root, file)} → ${relative(root, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  /** Every cycle found by a depth-first walk of `edges`, as `a → b → a` paths. */
  function cyclesIn(edges: Map<string, string[]>): string[] {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'visiting');
      stack.push(file);
      for (const next of edges.get(file) ?? []) {
        if (!edges.has(next)) continue;
        if (state.get(next) === 'visiting') cycles.push(stack.slice(stack.indexOf(next)).concat(next).map((f) => relative(root, f)).join(' → '));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of edges.keys()) if (!state.has(file)) visit(file);
    return cycles;
  }

  it('has no import cycles at run time', () => {
    expect(cyclesIn(runtimeGraph)).toEqual([]);
  });

  it('has no import cycles through type-only imports either', () => {
    // tsc erases them, but a circle of types is still two modules that cannot be understood apart.
    expect(cyclesIn(graph)).toEqual([]);
  });

  it('every relative import resolves to a file', () => {
    const missing = [...graph].flatMap(([file, targets]) => targets.filter((t) => !graph.has(t) && !t.endsWith('.json')).map((t) => `${relative(root, file)} → ${relative(root, t)}`));
    expect(missing).toEqual([]);
  });
});
