// Builds the V8 startup snapshot `agentd serve` starts from (src/cli/serve-snapshot.ts says
// what is in it, scripts/agentd-launcher.sh when it is used): a CommonJS bundle of the
// serve command, run once by this Node with --build-snapshot, and the key the launcher
// checks before passing the blob. A snapshot is only for the Node binary that built it.
// When it cannot be built, agentd still works (the launcher runs without it): one line says so.
import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendCompileAhead } from './compile-ahead.mjs';
import { buildSnapshotBlob } from './snapshot-blob.mjs';
import { trainServeSnapshot } from './train-serve-snapshot.mjs';

// Loaded at run time from node_modules instead of living in the snapshot: a native addon,
// packages that load .wasm files, and the big ones only the daemon proper uses, so the
// heap to restore stays small (a snapshot of everything, 24 MB, took 170 ms to restore);
// `ws` too, which only the dashboard's HTTP server uses and which requires optional native
// packages (bufferutil, utf-8-validate) that a snapshot could not load; pg and pg-boss, only for a PostgreSQL store.
const AT_RUN_TIME = /^(web-tree-sitter|tree-sitter-bash|gpt-tokenizer|undici|turndown|@mixmark-io\/domino|ajv|ajv-formats|@modelcontextprotocol\/sdk|ws|pg|pg-boss)(\/.*)?$/;

/** The global the snapshot's modules require packages through: set at build time by the banner, at run time by the entry. */
const RUNTIME_REQUIRE = 'globalThis.agentdSnapshotRequire';

export async function buildServeSnapshot(root, outdir) {
  const entry = join(outdir, 'chunks', 'serve-snapshot.cjs');
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
    // The source text lives in the snapshot, and so in the memory of every daemon. Names are
    // not minified: keeping them under minification (keepNames) redefines every function's
    // `name`, which turns each into a dictionary-mode object, 1.7 MB of the heap restored at
    // every start (bench/RESULTS.md, "The daemon proper in the snapshot").
    minifyWhitespace: true,
    minifySyntax: true,
    // The modules' own URL: the bundle's, so that paths relative to it resolve as from the ES module chunks beside it.
    define: { 'import.meta.url': 'globalThis.agentdSnapshotModuleUrl' },
    banner: {
      js: `${RUNTIME_REQUIRE} = require('node:module').createRequire(__filename); globalThis.agentdSnapshotModuleUrl = require('node:url').pathToFileURL(__filename).href;`,
    },
    plugins: [
      {
        name: 'packages-at-run-time',
        setup(plugin) {
          // better-sqlite3's JavaScript is bundled (requiring it from node_modules at run time cost
          // ~6 ms of the data-directory lock, right after the first answer); its native addon is
          // loaded from beside the installed package when the first database opens
          // (snapshot-sqlite-addon.cjs, in place of `bindings`, which only better-sqlite3 uses).
          plugin.onResolve({ filter: /^bindings$/ }, (args) => {
            if (!/[\\/]better-sqlite3[\\/]/.test(args.importer)) throw new Error(`bindings imported by ${args.importer}: only better-sqlite3's addon is loaded this way`);
            return { path: join(root, 'scripts', 'snapshot-sqlite-addon.cjs') };
          });
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
  // What a start runs, compiled into the snapshot (train-serve-snapshot.mjs, compile-ahead.mjs).
  // Without the list the snapshot is built as before, its functions compiled on first call.
  rmSync(join(outdir, 'serve-snapshot.hot.json'), { force: true });
  try {
    const hot = await trainServeSnapshot(root, outdir);
    appendCompileAhead(entry, hot.bundle);
  } catch (error) {
    rmSync(join(outdir, 'serve-snapshot.hot.json'), { force: true });
    process.stderr.write(`agentd: the start-up snapshot compiles nothing ahead: ${error.message}\n`);
  }
  buildSnapshotBlob(outdir);
}
