import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

/** dist/web, as `npm run build` leaves it (this file runs from dist/bench/dashboard/). */
const WEB = fileURLToPath(new URL('../../web/', import.meta.url));

export interface AssetWeight {
  file: string;
  bytes: number;
  gzipBytes: number;
  brotliBytes: number;
}

export interface PageWeightFigures {
  /** What the first view loads: the script index.html names (and the chunks it imports statically) and the stylesheet. */
  js: AssetWeight[];
  css: AssetWeight[];
  jsGzipKb: number;
  cssGzipKb: number;
  totalGzipKb: number;
  totalBrotliKb: number;
}

function weigh(file: string): AssetWeight {
  const body = readFileSync(join(WEB, file));
  return { file, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length, brotliBytes: brotliCompressSync(body).length };
}

/** The script files the entry loads before it runs: itself and its static imports, transitively (esbuild chunks). */
function staticScripts(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(WEB, file), 'utf8');
    for (const m of text.matchAll(/(?:^|[;}\s])import\s*(?:[\w${},*\s]+from\s*)?["'](\.\/[^"']+\.js)["']/g)) visit(join(dirname(file), m[1]!));
  };
  visit(entry);
  return [...seen];
}

/**
 * The bytes the first view costs: the files index.html links (with what the script
 * imports statically), raw, gzip level 9 and brotli, read from dist/web. A file the
 * daemon serves is what a browser would download; compression is what a proxy in front
 * could give (whether the daemon itself compresses is not counted here).
 */
export function benchPageWeight(): PageWeightFigures {
  const html = readFileSync(join(WEB, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script[^>]*\ssrc="\/([^"]+)"/g)].map((m) => m[1]!);
  const styles = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="\/([^"]+)"/g)].map((m) => m[1]!);
  if (scripts.length === 0) throw new Error(`no script in ${join(WEB, 'index.html')}: run npm run build first`);
  const js = [...new Set(scripts.flatMap(staticScripts))].map(weigh);
  const css = styles.map(weigh);
  const kb = (assets: AssetWeight[], key: 'gzipBytes' | 'brotliBytes'): number => Math.round(assets.reduce((sum, a) => sum + a[key], 0) / 10.24) / 100;
  return { js, css, jsGzipKb: kb(js, 'gzipBytes'), cssGzipKb: kb(css, 'gzipBytes'), totalGzipKb: kb([...js, ...css], 'gzipBytes'), totalBrotliKb: kb([...js, ...css], 'brotliBytes') };
}
