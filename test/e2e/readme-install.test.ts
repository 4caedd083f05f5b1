import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readmeCodeBlocks } from '../support/readme-code-blocks.js';

/*
 * The README's first line, as a newcomer runs it in a fresh clone: `npm install && npm link
 * && agentd --help`. npm's global prefix is a temporary folder (npm_config_prefix), so the
 * link lands there instead of in this machine's Node; everything else is as printed. The
 * second line (`npm test`) is what .ci/run runs.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const [installLine, testLine] = readmeCodeBlocks('README.md', '# agentd', 'sh')[0]!.trimEnd().split('\n');
const scratch = mkdtempSync(join(tmpdir(), 'agentd-install-'));

/**
 * Where better-sqlite3 finds Node's headers when its prebuilt binary cannot be downloaded
 * (this workplace reaches the npm registry only): Debian's nodejs ships them in
 * /usr/include/node. The same rule as .ci/run; an explicit npm_config_nodedir wins.
 */
function nodeHeaders(): NodeJS.ProcessEnv {
  const header = '/usr/include/node/node_version.h';
  if (process.env.npm_config_nodedir || !existsSync(header)) return {};
  const text = readFileSync(header, 'utf8');
  const part = (name: string): string => new RegExp(`#define NODE_${name}_VERSION (\\d+)`).exec(text)?.[1] ?? '';
  return `v${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}` === process.version ? { npm_config_nodedir: '/usr' } : {};
}
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the README's install line in a fresh clone", () => {
  it('installs, links agentd onto PATH and prints its help', { timeout: 600_000 }, () => {
    expect(testLine).toMatch(/^npm test\s/);
    const clone = join(scratch, 'agentd');
    execFileSync('git', ['clone', '--quiet', ROOT, clone]);
    const prefix = join(scratch, 'prefix');
    mkdirSync(prefix);
    const command = installLine!; // sh reads the trailing comment as one
    const run = spawnSync('sh', ['-c', command], {
      cwd: clone,
      encoding: 'utf8',
      timeout: 590_000,
      env: { ...process.env, ...nodeHeaders(), npm_config_prefix: prefix, PATH: `${join(prefix, 'bin')}:${process.env.PATH}`, npm_config_audit: 'false', npm_config_fund: 'false' },
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('agentd');
    expect(run.stdout).toMatch(/Usage|usage|Commands|commands/);
    // No peer conflict, and no dependency's install script left unreviewed (npm link may
    // still name agentd's own `prepare`, which is the build itself).
    expect(run.stderr).not.toMatch(/ERESOLVE/);
    expect(run.stderr).not.toMatch(/install-scripts\s+(better-sqlite3|esbuild|tree-sitter-bash)@/);
  });
});
