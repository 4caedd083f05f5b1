import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkRipgrep } from '../../../src/cli/doctor/check-ripgrep.js';
import { makeTempHome, type TempHome } from './temp-home.js';
import { RIPGREP, requireProgram } from '../../support/required-program.js';

const hasRipgrep = requireProgram(RIPGREP);

let t: TempHome;
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());

/** A directory holding an executable `rg` script that prints `versionLine`. */
function fakeRipgrep(versionLine: string, exitCode = 0): string {
  const dir = path.join(t.home, `bin-${exitCode}-${versionLine.replace(/\W/g, '')}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'rg'), `#!/bin/sh\necho '${versionLine}'\nexit ${exitCode}\n`, { mode: 0o755 });
  return dir;
}

describe('checkRipgrep', () => {
  it.skipIf(!hasRipgrep)('finds the installed rg and reports its version', async () => {
    const check = await checkRipgrep(process.env);
    expect(check.status).toBe('ok');
    expect(check.detail).toMatch(/^ripgrep \d+\.\d+\.\d+.* at \/\S+rg$/);
  });

  it('fails when no rg is on PATH, with the install command', async () => {
    const empty = path.join(t.home, 'empty-bin');
    fs.mkdirSync(empty);
    const check = await checkRipgrep({ PATH: empty });
    expect(check.status).toBe('fail');
    expect(check.detail).toBe('ripgrep (rg) was not found, so the glob and grep tools cannot run');
    expect(check.fix).toContain('apt-get install ripgrep');
  });

  it('warns about a ripgrep too old for --no-require-git', async () => {
    const dir = fakeRipgrep('ripgrep 0.10.0');
    const check = await checkRipgrep({ PATH: `${dir}:/usr/bin:/bin` });
    expect(check.status).toBe('warn');
    expect(check.detail).toBe(`${path.join(dir, 'rg')} is ripgrep 0.10.0; agentd needs 11.0.0 or newer to honour .gitignore outside git repositories`);
  });

  it('fails an rg that does not run', async () => {
    const dir = fakeRipgrep('broken', 3);
    const check = await checkRipgrep({ PATH: `${dir}:/usr/bin:/bin` });
    expect(check.status).toBe('fail');
    expect(check.detail).toContain(`${path.join(dir, 'rg')} does not run`);
  });
});
