import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { grepTool } from '../../../src/tools/builtin/grep.js';
import { runRipgrep } from '../../../src/tools/search/run-ripgrep.js';
import { buildSandboxPolicy } from '../../../src/tools/sandbox/sandbox-policy.js';
import { searchExclusions } from '../../../src/tools/search/search-exclusions.js';
import { makeContext, textOf } from '../tool-test-context.js';
import { HOME_SECRETS, leaksSecret, type HomeWorkspace, useHomeWorkspace } from './home-workspace-fixture.js';
import { sessionPermissionHarness } from './session-permission-harness.js';
import { RIPGREP, requireProgram } from '../../support/required-program.js';

const hasRipgrep = requireProgram(RIPGREP);

/** F12: each of the two layers that keep searches out of hidden paths holds on its own. */
describe.skipIf(!hasRipgrep)('[F12 access-policy] search exclusions', () => {
  let w: HomeWorkspace;
  useHomeWorkspace((made) => (w = made));

  const ctxWith = (policy = w.policy) => makeContext(w.home, { dataDir: w.paths.dataDir, settings: { sandboxPolicy: policy } });

  /** Every file rg lists under the home with `--glob '**'` (which overrides its hidden-file skipping) and the flags. */
  const listed = async (flags: string[]): Promise<string[]> => {
    const lines: string[] = [];
    await runRipgrep(['--files', '--hidden', '--glob', '**', ...flags], { cwd: w.home, signal: new AbortController().signal }, (line) => lines.push(line));
    return lines;
  };

  it('[F12 access-policy] the rg flags alone keep rg --hidden --glob ** out of every hidden path', async () => {
    const excluded = await searchExclusions(ctxWith(), w.home);
    expect(await listed([])).toContain('.ssh/id_rsa');
    const files = await listed(excluded.rgFlags);
    expect(files).toContain('src/app.ts');
    expect(files.filter((f) => /^(\.ssh|\.aws|private|\.config\/agentd|\.local\/share\/agentd)\//.test(f))).toEqual([]);
  });

  it('[F12 access-policy] a denyRead name full of glob syntax is excluded literally, its look-alike is not', async () => {
    const odd = 'we*ird[1]{a,b}?';
    for (const dir of [odd, 'weXird1a']) {
      fs.mkdirSync(path.join(w.home, dir));
      fs.writeFileSync(path.join(w.home, dir, 'f.txt'), 'x');
    }
    const { policy } = buildSandboxPolicy({ paths: w.paths, config: { sandbox: { denyRead: [`~/${odd}`] } }, env: w.env });
    const files = await listed((await searchExclusions(ctxWith(policy), w.home)).rgFlags);
    expect(files).toContain('weXird1a/f.txt');
    expect(files).not.toContain(`${odd}/f.txt`);
  });

  it('[F12 access-policy] the output filter alone drops both spellings of a hidden path that is a link', async () => {
    const real = path.join(w.home, 'vault');
    fs.renameSync(path.join(w.home, '.aws'), real);
    fs.symlinkSync(real, path.join(w.home, '.aws'));
    const excluded = await searchExclusions(ctxWith(), w.home);
    for (const p of ['.aws/credentials', 'vault/credentials', path.join(real, 'credentials'), '.ssh', 'private/notes.txt']) expect(excluded.skips(p)).toBe(true);
    for (const p of ['src/app.ts', '.sshrc', 'privateer/x']) expect(excluded.skips(p)).toBe(false);
  });

  it('[F12 access-policy] a folder the user approved is searched whole: its own hidden files are covered by that yes', async () => {
    const h = sessionPermissionHarness({ cwd: w.home, dataDir: w.paths.dataDir, mode: 'ask', answer: () => 'allow_once', sandboxPolicy: w.policy });
    const { result } = await h.run(grepTool, { pattern: 'PRIVATE', path: '.config/agentd' });
    expect(h.questions).toHaveLength(1);
    expect(textOf(result!)).toContain(HOME_SECRETS.apiKey);
  });

  it('[F12 access-policy] grep of the home from a session elsewhere (the home allowed as outside) still leaves hidden paths out', async () => {
    const project = path.join(w.home, 'src');
    const h = sessionPermissionHarness({ cwd: project, dataDir: w.paths.dataDir, mode: 'bypass', answer: () => 'allow_once', sandboxPolicy: w.policy });
    const { result } = await h.run(grepTool, { pattern: 'PRIVATE', path: '~', glob: '**' });
    expect(h.questions).toHaveLength(0);
    expect(textOf(result!)).toContain('app.ts');
    expect(leaksSecret(textOf(result!))).toBe(false);
  });
});
