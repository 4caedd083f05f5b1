// Builds the V8 startup snapshot `agentd serve` starts from (src/cli/serve-snapshot.ts says
// what is in it, scripts/agentd-launcher.sh when it is used): a CommonJS bundle of the
// serve command, run once by this Node with --build-snapshot, and the key the launcher
// checks before passing the blob. A snapshot is only for the Node binary that built it.
// When it cannot be built, agentd still works (the launcher runs without it): one line says so.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

// Loaded at run time from node_modules instead of living in the snapshot: a native addon,
// packages that load .wasm files, and the big ones only the daemon proper uses (pg and pg-boss
// only with the PostgreSQL store), so the
// heap to restore stays small (a snapshot of everything, 24 MB, took 170 ms to restore);
// `ws` too, which only the dashboard's HTTP server uses and which requires optional native
// packages (bufferutil, utf-8-validate) that a snapshot could not load.
const AT_RUN_TIME = /^(web-tree-sitter|tree-sitter-bash|gpt-tokenizer|undici|turndown|@mixmark-io\/domino|ajv|ajv-formats|chokidar|@modelcontextprotocol\/sdk|ws|pg|pg-boss)(\/.*)?$/;

/** The global the snapshot's modules require packages through: set at build time by the banner, at run time by the entry. */
const RUNTIME_REQUIRE = 'globalThis.agentdSnapshotRequire';

export async function buildServeSnapshot(root, outdir) {
  const entry = join(outdir, 'chunks', 'serve-snapshot.cjs');
  const blob = join(outdir, 'serve-snapshot.blob');
  const keyFile = join(outdir, 'serve-snapshot.key');
  rmSync(keyFile, { force: true });
  const { metafile } = await build({
    entryPoints: [join(root, 'dist', 'src', 'cli', 'serve-snapshot.js')],
    outfile: entry,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    mainFields: ['module', 'main'],
    // The source text lives in the snapshot, and so in the memory of every daemon.
    minify: true,
    keepNames: true,
    // The modules' own URL: the bundle's, so that paths relative to it resolve as from the ES module chunks beside it.
    define: { 'import.meta.url': 'globalThis.agentdSnapshotModuleUrl' },
    banner: {
      js: `${RUNTIME_REQUIRE} = require('node:module').createRequire(__filename); globalThis.agentdSnapshotModuleUrl = require('node:url').pathToFileURL(__filename).href;`,
    },
    plugins: [
      {
        name: 'packages-at-run-time',
        setup(plugin) {
          // The data-directory lock imports SQLite on the serve path itself: a stand-in that loads it on first use.
          plugin.onResolve({ filter: /^better-sqlite3$/ }, (args) => ({ path: args.path, namespace: 'lazy-package' }));
          plugin.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => ({
            contents: `let loaded; const load = () => (loaded ??= ${RUNTIME_REQUIRE}(${JSON.stringify(args.path)}));
module.exports = new Proxy(function () {}, { construct: (_, a) => new (load())(...a), apply: (_, self, a) => load().apply(self, a), get: (_, key) => load()[key] });`,
          }));
          plugin.onResolve({ filter: AT_RUN_TIME }, (args) => ({ path: args.path, namespace: 'package-at-run-time' }));
          plugin.onLoad({ filter: /.*/, namespace: 'package-at-run-time' }, (args) => ({
            contents: `module.exports = ${RUNTIME_REQUIRE}(${JSON.stringify(args.path)});`,
          }));
        },
      },
    ],
    logLevel: 'warning',
    metafile: true,
  });
  // What is in the snapshot, for test/cli/start-path.test.ts (the minified bundle names no module).
  writeFileSync(join(outdir, 'serve-snapshot.modules.json'), JSON.stringify(Object.keys(metafile.inputs), null, 1));
  const partial = `${blob}.${process.pid}`;
  // Without the CA bundle or other options the user's node would not have either.
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  // V8 restores a snapshot only under the flags it was built with: the launcher's.
  const v8Flags = /^v8_flags=(.*)$/m.exec(readFileSync(join(outdir, 'agentd'), 'utf8'))?.[1]?.split(' ') ?? [];
  const built = spawnSync(process.execPath, [...v8Flags, '--snapshot-blob', partial, '--build-snapshot', entry], { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (built.status !== 0) {
    rmSync(partial, { force: true });
    const reason = built.error?.message ?? built.stderr.trim().split('\n').slice(-3).join(' ');
    process.stderr.write(`agentd: no start-up snapshot (agentd serve starts without one): ${reason}\n`);
    return;
  }
  // Written whole or not at all: a truncated blob would crash node rather than be refused.
  renameSync(partial, blob);
  const key = spawnSync('sh', [join(outdir, 'agentd')], {
    env: { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, AGENTD_PRINT_SNAPSHOT_KEY: '1' },
    encoding: 'utf8',
  });
  if (key.status !== 0 || key.stdout.trim() === '') {
    process.stderr.write(`agentd: no start-up snapshot (agentd serve starts without one): its key could not be computed (${key.stderr.trim()})\n`);
    return;
  }
  writeFileSync(keyFile, key.stdout);
}
