import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(resolve(DIST, '../package.json'), 'utf8')) as { bin: { agentd: string } };
const BIN = resolve(DIST, '..', PACKAGE.bin.agentd);
const CJS_ENTRY = resolve(DIST, 'bin/agentd.cjs');

/** Static imports (not `import()`) of an ES module's text: `import … from 'x'`, `export … from 'x'`, `import 'x'`. */
const STATIC_IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;

/** Every file a module loads before its own code runs, and the packages among them. */
function staticGraph(entry: string): { files: string[]; packages: Set<string> } {
  const seen = new Set([entry]);
  const packages = new Set<string>();
  for (const file of seen) {
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const specifier = (match[1] ?? match[2])!;
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      const target = resolve(dirname(file), specifier);
      if (existsSync(target)) seen.add(target);
    }
  }
  return { files: [...seen].map((file) => relative(DIST, file)), packages };
}

/**
 * `agentd serve` answers `initialize` from a light shell; the store, sessions, loop,
 * providers and tools load after that answer (create-daemon-shell.ts). What the shell
 * imports statically is all that stands between spawn and the first answer, so these
 * guard it: one error class imported from the wrong file once put the session and the
 * whole loop (60 modules) on that path.
 */
describe('the path to the first answer of `agentd serve`', () => {
  it('does not load the session, the loop, the providers, the tools or the store (only its lock)', () => {
    const { files } = staticGraph(resolve(DIST, 'src/cli/commands/serve.js'));
    const heavy = files.filter(
      (file) =>
        /^src\/(loop|providers|session\/(?!.*error))/.test(file) ||
        (/^src\/tools\//.test(file) && !/^src\/tools\/permissions\/permission-modes\.js$/.test(file)) ||
        (/^src\/store\//.test(file) && !/^src\/store\/(data-dir-lock|data-dir-owner-note|store-error)\.js$/.test(file)),
    );
    expect(heavy).toEqual([]);
  });

  it('ships bundled: the `agentd` bin reaches the serve command through its own chunks, with no package but the SQLite addon (for the data-directory lock)', () => {
    expect(readFileSync(CJS_ENTRY, 'utf8')).toMatch(/\bimport\("\.\/main\.js"\)/);
    const main = resolve(DIST, 'bin/main.js');
    const serveChunk = /import\("(\.\/chunks\/serve-[\w-]+\.js)"\)/.exec(readFileSync(main, 'utf8'))?.[1];
    expect(serveChunk, 'main.js imports the serve command lazily').toBeDefined();
    const entry = staticGraph(main);
    const serve = staticGraph(resolve(dirname(main), serveChunk!));
    const packages = [...entry.packages, ...serve.packages].filter((name) => !name.startsWith('node:'));
    expect(new Set(packages)).toEqual(new Set(['better-sqlite3']));
  });
});

describe('the path of `agentd acp`, a byte bridge to the shared daemon', () => {
  it('loads only the bridge, the socket probe, the socket folder check, the paths and how to start the daemon: an editor starts it for every chat', () => {
    const { files } = staticGraph(resolve(DIST, 'src/cli/commands/acp.js'));
    expect(files.sort()).toEqual(
      [
        'protocol/wire/check-socket-path.js',
        'src/cli/bridge-stdio.js',
        'src/cli/commands/acp.js',
        'src/cli/daemon/find-or-start-daemon.js',
        'src/cli/daemon/ready-pipe.js',
        'src/cli/daemon/serve-command-line.js',
        'src/config/agentd-paths.js',
        'src/config/platform-folders.js',
        'src/server/wire/transports/is-socket-live.js',
        'src/store/data-dir-owner-note.js',
      ].sort(),
    );
  });
});

/** The modules esbuild put in a bundle, from the `// path` line it writes above each. */
function bundledModules(bundle: string): string[] {
  return [...readFileSync(bundle, 'utf8').matchAll(/^\/\/ (\S+\.js)$/gm)].map((match) => match[1]!.replace(/^.*node_modules\//, 'node_modules/'));
}

describe('the `agentd` bin, what an editor spawns for every chat', () => {
  it('is a launcher: serve from the start-up snapshot when its key holds, everything else (and serve otherwise) through agentd.cjs', () => {
    expect(PACKAGE.bin.agentd).toBe('dist/bin/agentd');
    const launcher = readFileSync(BIN, 'utf8');
    expect(launcher.startsWith('#!/bin/sh\n')).toBe(true);
    const execs = [...launcher.matchAll(/^\s*exec (.*)$/gm)].map((match) => match[1]);
    expect(execs).toEqual([
      '"$node" $v8_flags --snapshot-blob "$blob" "$dir/chunks/serve-snapshot.cjs" "$@"',
      'node $v8_flags "$dir/agentd.cjs" "$@"',
      // acp above all: an editor waits for the bridge, which the daemon's flags would slow.
      'node "$dir/agentd.cjs" "$@"',
    ]);
    // Only serve's command lines (serve, none, or options) reach the snapshot.
    expect(launcher).toMatch(/case \$1 in\n\s*serve \| '' \| -\*\)/);
  });

  it('agentd.cjs is one CommonJS file holding only the acp bridge and the words for its failures; every other command is the ES module CLI beside it, imported on demand', () => {
    expect(new Set(bundledModules(CJS_ENTRY))).toEqual(
      new Set([
        'dist/src/cli/bin.js',
        'dist/src/cli/commands/acp.js',
        'dist/src/cli/bridge-stdio.js',
        'dist/src/cli/daemon/find-or-start-daemon.js',
        'dist/src/cli/daemon/ready-pipe.js',
        'dist/src/cli/daemon/serve-command-line.js',
        'dist/src/server/wire/transports/is-socket-live.js',
        'dist/protocol/wire/check-socket-path.js',
        'dist/src/config/agentd-paths.js',
        'dist/src/config/platform-folders.js',
        'dist/src/store/data-dir-owner-note.js',
        // Loaded only when no daemon answers, to find the data directory's owner.
        'dist/src/store/data-dir-lock.js',
        // Evaluated only when the bridge fails: the CLI's wording of the error.
        'dist/src/cli/report-cli-failure.js',
        'dist/src/cli/describe-usage-error.js',
        'dist/src/cli/describe-daemon-error.js',
        'dist/src/cli/command-help.js',
        'dist/src/config/closest-match.js',
        'dist/src/config/config-error.js',
        'dist/src/config/show-control-characters.js',
      ]),
    );
    const required = new Set([...readFileSync(CJS_ENTRY, 'utf8').matchAll(/\brequire\("([^"]+)"\)/g)].map((match) => match[1]!));
    expect([...required].filter((name) => !name.startsWith('node:'))).toEqual(['better-sqlite3']);
  });

  it('the snapshot holds the serve command and the daemon proper, and loads the native, wasm and big packages from node_modules at run time', () => {
    const entry = resolve(DIST, 'bin/chunks/serve-snapshot.cjs');
    const text = readFileSync(entry, 'utf8');
    // A snapshot may require only Node's own modules while it is built.
    const required = [...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((match) => match[1]!);
    expect(required.filter((name) => !builtinModules.includes(name.replace(/^node:/, '')))).toEqual([]);
    const atRunTime = new Set([...text.matchAll(/globalThis\.agentdSnapshotRequire\("([^"]+)"\)/g)].map((match) => match[1]!.replace(/^(@[^/]+\/[^/]+|[^@/][^/]*).*$/, '$1')));
    expect(atRunTime).toEqual(
      new Set(['web-tree-sitter', 'gpt-tokenizer', 'undici', 'turndown', '@modelcontextprotocol/sdk', 'ws', 'pg', 'pg-boss']),
    );
    const modules = (JSON.parse(readFileSync(resolve(DIST, 'bin/serve-snapshot.modules.json'), 'utf8')) as string[]).map((file) =>
      file.replace(/^.*node_modules\//, 'node_modules/'),
    );
    expect(modules).toContain('dist/src/cli/commands/serve.js');
    expect(modules).toContain('dist/src/daemon/start-daemon.js');
    expect(modules.filter((file) => /node_modules\/(gpt-tokenizer|undici|turndown|ajv|@modelcontextprotocol)\//.test(file))).toEqual([]);
    // In it, evaluated at build time: they were the daemon proper's slowest loads at run time, right after the first answer.
    expect(modules).toContain('node_modules/chokidar/esm/index.js');
    expect(modules).toContain('node_modules/better-sqlite3/lib/database.js');
    // better-sqlite3's native addon is the one thing of it left to run time (scripts/build-serve-snapshot.mjs).
    expect(modules.filter((file) => /node_modules\/bindings\//.test(file))).toEqual([]);
    // Its module code reads the home folder: a snapshot would keep the build's (src/config/platform-folders.ts).
    expect(modules.filter((file) => /node_modules\/env-paths\//.test(file))).toEqual([]);
    // What a start runs is compiled into the snapshot: the training found it (scripts/train-serve-snapshot.mjs).
    const hot = JSON.parse(readFileSync(resolve(DIST, 'bin/serve-snapshot.hot.json'), 'utf8')) as { bundle: number[]; builtins: number[] };
    expect(hot.bundle.length).toBeGreaterThan(200);
    expect(hot.bundle.every((offset) => Number.isInteger(offset) && offset >= 0 && offset < text.length)).toBe(true);
    expect(hot.builtins.length).toBeGreaterThan(100);
    // Code compiled into a snapshot cannot import(): nothing may be left to load that way.
    expect(text).not.toMatch(/\bimport\([^)]/);
  });

  it('evaluates the daemon proper while the snapshot is built, and nothing it evaluates loads the built-ins Node 20 cannot snapshot', () => {
    const { files, packages } = staticGraph(resolve(DIST, 'src/cli/serve-snapshot.js'));
    expect(files).toContain('src/cli/commands/serve.js');
    expect(files).toContain('src/daemon/start-daemon.js');
    // node:http throws in the snapshot builder and node:https (with node:tls) aborts it; the HTTP
    // clients are loaded on first use (src/providers/http/node-http-client.ts).
    expect([...packages].filter((name) => /^(node:)?(http|https|http2|tls)$/.test(name))).toEqual([]);
  });
});
