import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The layers, top to bottom: cli → daemon → server → session → project → loop → tools →
 * (providers, scheduler) → (store, config); protocol/ under all. Folders of one rank never
 * import each other: each stands on what is below it alone.
 */
const RANK: Record<string, number> = { cli: 9, daemon: 8, server: 7, session: 6, project: 5, loop: 4, tools: 3, providers: 2, scheduler: 2, store: 1, config: 1 };

/** Packages each part may import besides node: built-ins (src/ may import its declared dependencies). */
const PACKAGES_ALLOWED: Record<string, readonly string[]> = {
  protocol: ['zod', 'vscode-jsonrpc'],
  'clients/typescript': ['vscode-jsonrpc'],
  'clients/web': ['preact', '@preact/signals'],
};

/** The layers each client may import besides its own folder: the TypeScript client stands on protocol/ alone; the page on both. */
const CLIENT_IMPORTS: Record<string, readonly string[]> = {
  'clients/typescript': ['protocol'],
  'clients/web': ['protocol', 'clients/typescript'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') || name.endsWith('.tsx') ? [path] : [];
  });
}

/** Packages a file imports (static and dynamic), by package name (`@scope/name` or `name`). */
function packagesOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'([^.'][^']*)'/g)]
    .map((m) => m[1]!)
    .filter((spec) => !spec.startsWith('node:'))
    .map((spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/'));
}

/** Relative imports of a file (static and dynamic), resolved to .ts paths; `import type` ones only when asked. */
function importsOf(file: string, withTypes: boolean): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(import\s+type\s[^;]*?from\s+|export\s+type\s[^;]*?from\s+|from\s+|import\s*\(\s*|import\s+)'(\.[^']+)'/g)]
    .filter((m) => withTypes || !/^(import|export)\s+type\s/.test(m[1]!))
    .map((m) => m[2]!);
  return specs.map((spec) => {
    const path = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
    return existsSync(path) || !existsSync(`${path}x`) ? path : `${path}x`;
  });
}

function layerOf(file: string): string {
  const rel = relative(root, file).split('/');
  if (rel[0] === 'clients') return `clients/${rel[1]!}`;
  return rel[0] === 'src' ? rel[1]! : rel[0]!;
}

const files = [
  ...sourceFiles(join(root, 'src')),
  ...sourceFiles(join(root, 'protocol')),
  ...sourceFiles(join(root, 'clients/typescript/src')),
  ...sourceFiles(join(root, 'clients/web/src')),
];
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
        const allowed = CLIENT_IMPORTS[from];
        if (allowed && to !== from && !allowed.includes(to)) upward.push(`${relative(root, file)} → ${relative(root, target)} (${from} may import only ${allowed.join(' and ')})`);
        if (RANK[from] !== undefined && RANK[to] !== undefined && RANK[to]! > RANK[from]!) upward.push(`${relative(root, file)} → ${relative(root, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('folders of the same rank do not import each other', () => {
    const sideways = [...graph].flatMap(([file, targets]) => {
      const from = layerOf(file);
      return targets
        .filter((target) => layerOf(target) !== from && RANK[from] !== undefined && RANK[from] === RANK[layerOf(target)])
        .map((target) => `${relative(root, file)} → ${relative(root, target)}`);
    });
    expect(sideways).toEqual([]);
  });

  it('protocol/ and the clients import only the packages they are allowed', () => {
    const dependencies = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
    const wrong = files.flatMap((file) => {
      const layer = layerOf(file);
      const allowed = PACKAGES_ALLOWED[layer] ?? dependencies;
      return packagesOf(file)
        .filter((name) => !allowed.includes(name))
        .map((name) => `${relative(root, file)} imports ${name} (${layer} may import ${allowed.join(', ')} and node: built-ins)`);
    });
    expect(wrong).toEqual([]);
  });

  it('src/ and clients/ take protocol schemas from protocol/index.ts alone; besides protocol/wire/, other protocol modules they import build none', () => {
    const protocolFiles = files.filter((file) => layerOf(file) === 'protocol');
    /** Whether loading `file` runs a protocol module that imports zod. */
    const buildsSchemas = (file: string, seen = new Set<string>()): boolean => {
      if (seen.has(file)) return false;
      seen.add(file);
      return packagesOf(file).includes('zod') || (runtimeGraph.get(file) ?? []).some((next) => protocolFiles.includes(next) && buildsSchemas(next, seen));
    };
    const index = join(root, 'protocol/index.ts');
    const wire = join(root, 'protocol/wire') + '/';
    const wrong = [...graph].flatMap(([file, targets]) =>
      layerOf(file) === 'protocol'
        ? []
        : targets.filter((target) => layerOf(target) === 'protocol' && target !== index && !target.startsWith(wire) && buildsSchemas(target)).map((target) => `${relative(root, file)} → ${relative(root, target)}`),
    );
    expect(wrong).toEqual([]);
  });

  it('the layering covers every folder of src/', () => {
    const folders = readdirSync(join(root, 'src')).filter((name) => statSync(join(root, 'src', name)).isDirectory());
    expect(folders.filter((name) => RANK[name] === undefined)).toEqual([]);
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
    const missing = [...graph].flatMap(([file, targets]) =>
      targets.filter((t) => !graph.has(t) && !t.endsWith('.json') && !(t.endsWith('.css') && existsSync(t))).map((t) => `${relative(root, file)} → ${relative(root, t)}`),
    );
    expect(missing).toEqual([]);
  });

  it('the page and the browser entry load no Node built-in and nothing from protocol/ that builds a schema (zod would be bundled into the page)', () => {
    const protocolFiles = files.filter((file) => layerOf(file) === 'protocol');
    const browserEntry = join(root, 'clients/typescript/src/browser.ts');
    // What loading the page runs: the runtime imports from its entry and from the browser entry.
    const reached = new Set<string>();
    const walk = (file: string): void => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const next of runtimeGraph.get(file) ?? []) walk(next);
    };
    walk(join(root, 'clients/web/src/main.tsx'));
    walk(browserEntry);
    const wrong = [...reached].filter((file) => protocolFiles.includes(file) && packagesOf(file).includes('zod')).map((file) => relative(root, file));
    expect(wrong).toEqual([]);
    // Nor a Node built-in (a browser has none); imports of types alone are erased.
    const nodeImports = [...reached].filter((file) => /^import\s+(?!type\s)[^;]*?from\s+'node:/m.test(readFileSync(file, 'utf8'))).map((file) => relative(root, file));
    expect(nodeImports).toEqual([]);
  });
});
