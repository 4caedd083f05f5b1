// Bundles the compiled CLI (dist/src/cli/main.js, from `tsc -b`) into dist/bin/: what the
// `agentd` bin runs. Start-up time is mostly Node resolving, reading and compiling
// modules (about 280 files on the way to the first answer, 95 of them zod's); a bundle
// split at every dynamic import keeps each command's and the daemon proper's code lazy
// while the path to `initialize` reads a handful of files (bench/RESULTS.md, "Cold start").
// The bin itself, dist/bin/agentd.cjs, is one CommonJS file holding `agentd acp`'s bridge
// and handing every other command line to main.js (src/cli/bin.ts says why); the `agentd`
// bin is a launcher (scripts/agentd-launcher.sh) that starts `serve` from a startup
// snapshot built here for this Node (scripts/build-serve-snapshot.mjs) and runs agentd.cjs
// for everything else.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServeSnapshot } from './build-serve-snapshot.mjs';
import { bundleWeb } from './bundle-web.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const outdir = join(root, 'dist', 'bin');
rmSync(outdir, { recursive: true, force: true });

await build({
  entryPoints: [join(root, 'dist', 'src', 'cli', 'main.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // jsonc-parser's "main" is a UMD build whose relative require()s esbuild cannot follow.
  mainFields: ['module', 'main'],
  // A native addon, and two packages that load a .wasm file from beside their own code.
  external: ['better-sqlite3', 'web-tree-sitter', 'tree-sitter-bash'],
  chunkNames: 'chunks/[name]-[hash]',
  // CommonJS dependencies (vscode-jsonrpc, the MCP SDK's) require() Node's modules; ESM
  // output has no require of its own (esbuild renames the project's own `require`s).
  banner: { js: "import { createRequire as __agentdCreateRequire } from 'node:module'; const require = __agentdCreateRequire(import.meta.url);" },
  // Follows tsc's maps, so a stack trace under --enable-source-maps names the .ts line.
  sourcemap: 'linked',
  logLevel: 'warning',
});

await build({
  entryPoints: [join(root, 'dist', 'src', 'cli', 'bin.js')],
  outfile: join(outdir, 'agentd.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3'],
  // The full CLI stays the ES module bundle above, loaded only for commands other than acp.
  plugins: [
    {
      name: 'full-cli-beside-the-bin',
      setup(plugin) {
        plugin.onResolve({ filter: /^\.\/main\.js$/ }, () => ({ path: './main.js', external: true }));
      },
    },
  ],
  sourcemap: 'linked',
  logLevel: 'warning',
});
chmodSync(join(outdir, 'agentd.cjs'), 0o755);
copyFileSync(join(root, 'scripts', 'agentd-launcher.sh'), join(outdir, 'agentd'));
chmodSync(join(outdir, 'agentd'), 0o755);
await buildServeSnapshot(root, outdir);

// The dashboard page the daemon serves over HTTP (dist/web/).
await bundleWeb();
