import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const packageDir = join(root, 'clients/typescript');

describe('clients/typescript as an npm package', () => {
  const work = mkdtempSync(join(tmpdir(), 'agentd-pack-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('npm pack builds a tarball whose entry point loads on its own and exports the SDK', { timeout: 120_000 }, () => {
    execFileSync('npm', ['pack', '--pack-destination', work], { cwd: packageDir, stdio: 'pipe' });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    expect(tarball).toBe('agentd-client-0.1.0.tgz');
    // Unpacked as npm would install it; its two dependencies come from this checkout (no network).
    const installed = join(work, 'node_modules', '@agentd', 'client');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', join(work, tarball!), '-C', installed, '--strip-components=1']);
    for (const dependency of ['zod', 'vscode-jsonrpc']) symlinkSync(join(root, 'node_modules', dependency), join(work, 'node_modules', dependency));
    expect(existsSync(join(installed, 'dist/clients/typescript/src/index.d.ts'))).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);

    const exported = execFileSync(process.execPath, ['--input-type=module', '-e', "const m = await import('@agentd/client'); console.log(Object.keys(m).sort().join(','))"], {
      cwd: work,
      encoding: 'utf8',
    });
    const names = exported.trim().split(',');
    expect(names).toEqual(expect.arrayContaining(['Agentd', 'AgentdClient', 'AgentdClientError', 'AgentdSession', 'AgentdConnectionClosedError']));
  });
});
