// Bundles the dashboard page (clients/web/) into dist/web/: index.html and assets/ with
// content-hashed names, minified, nothing fetched from elsewhere at run time. The daemon
// serves them under a CSP of `script-src 'self'; style-src 'self'`, so the page has no inline
// script or style: one script file and one stylesheet, linked from index.html.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

export async function bundleWeb() {
  const outdir = join(root, 'dist', 'web');
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(join(outdir, 'assets'), { recursive: true });
  const result = await build({
    entryPoints: [join(root, 'clients', 'web', 'src', 'main.tsx')],
    outdir: join(outdir, 'assets'),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    // The protocol's JSON-RPC peer imports vscode-jsonrpc's Node build; the page takes its
    // browser build, which has the same API and no Node built-in.
    alias: { 'vscode-jsonrpc/node.js': 'vscode-jsonrpc/browser' },
    minify: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
  const script = outputs.find((name) => name.endsWith('.js'));
  const style = outputs.find((name) => name.endsWith('.css'));
  if (!script || !style) throw new Error(`bundle-web: expected one .js and one .css output, got ${outputs.join(', ')}`);
  const nodeBuiltins = Object.keys(result.metafile.inputs).filter((path) => path.startsWith('node:') || path.includes('vscode-jsonrpc/lib/node/'));
  if (nodeBuiltins.length > 0) throw new Error(`bundle-web: the page bundle takes in Node modules: ${nodeBuiltins.join(', ')}`);
  copyFileSync(join(root, 'clients', 'web', 'icon.svg'), join(outdir, 'assets', 'icon.svg'));
  const template = readFileSync(join(root, 'clients', 'web', 'index.html'), 'utf8');
  writeFileSync(join(outdir, 'index.html'), template.replace('%SCRIPT%', `/assets/${script}`).replace('%STYLE%', `/assets/${style}`));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleWeb();
