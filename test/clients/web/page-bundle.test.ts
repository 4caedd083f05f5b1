import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/** What `npm run build` (scripts/bundle-web.mjs) leaves in dist/web; `npm test` builds it before vitest runs. */
const web = fileURLToPath(new URL('../../../dist/web/', import.meta.url));

describe('the dashboard bundle', () => {
  const html = readFileSync(join(web, 'index.html'), 'utf8');
  const assets = readdirSync(join(web, 'assets'));
  const scripts = assets.filter((name) => name.endsWith('.js'));

  it('is one page linking one script and one stylesheet of its own origin, with nothing inline (the CSP allows only self)', () => {
    expect([...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => [m[1]!.trim(), m[2]])).toEqual([[`type="module" src="/assets/${scripts[0]}"`, '']]);
    expect([...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1])).toEqual([`/assets/${assets.find((name) => name.endsWith('.css'))}`]);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=|javascript:/i);
    expect(html.match(/(?:src|href)="([^"]+)"/g)!.every((attribute) => attribute.includes('"/assets/'))).toBe(true);
    expect(scripts).toHaveLength(1);
  });

  it('weighs at most 150 KB of gzipped JavaScript, minified, with no Node built-in and no schema (zod stays out)', () => {
    const code = readFileSync(join(web, 'assets', scripts[0]!), 'utf8');
    expect(gzipSync(code).length).toBeLessThanOrEqual(150 * 1024);
    // Minified: no line is indented (line breaks are left only inside template literals).
    expect(code).not.toMatch(/^[ \t]{2,}\S/m);
    expect(code).not.toMatch(/from\s*"node:|require\("node:/);
    // A schema's description from protocol/jsonrpc.ts: present only if the schemas were bundled.
    expect(code).not.toContain('JSON-RPC request id: string or integer');
    expect(code).toContain('/rpc');
  });

  it('fetches nothing from another origin: no absolute address besides XML namespaces', () => {
    const code = readFileSync(join(web, 'assets', scripts[0]!), 'utf8');
    const addresses = [...new Set(code.match(/\bhttps?:\/\/[^\s"'`)]+/g) ?? [])].filter((url) => !url.startsWith('http://www.w3.org/'));
    expect(addresses).toEqual([]);
  });
});
