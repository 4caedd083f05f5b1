import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readmeCodeBlocks } from '../support/readme-code-blocks.js';
import { requireProgram } from '../support/required-program.js';
import { runProcess } from '../support/run-process.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const hasEmacs = requireProgram({ command: 'emacs', debianPackage: 'emacs-nox', neededBy: "the README's Emacs snippets" });

/** The README's Emacs setup, loaded as printed by a user whose checkout is ~/src/agentd. */
describe.skipIf(!hasEmacs)("the README's Emacs snippets", () => {
  const home = mkdtempSync(join(tmpdir(), 'agentd-emacs-home-'));
  mkdirSync(join(home, 'src'));
  symlinkSync(root, join(home, 'src', 'agentd'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const [usePackage, plain] = readmeCodeBlocks('README.md', '### Emacs', 'elisp');

  /** Loads SNIPPET in a fresh `emacs --batch -Q`, then prints what C-c a p runs. */
  const load = async (snippet: string) => {
    const file = join(home, 'init.el');
    writeFileSync(file, snippet);
    const run = await runProcess('emacs', ['--batch', '-Q', '-l', file, '--eval', '(princ (format "C-c a p: %s, major %d" (key-binding (kbd "C-c a p")) emacs-major-version))'], {
      env: { ...process.env, HOME: home },
      timeoutMs: 60_000,
    });
    return { code: run.code, output: run.stdout + run.stderr };
  };

  it('the require form works on every supported Emacs', { timeout: 60_000 }, async () => {
    const run = await load(plain!);
    expect(run.output).toContain('C-c a p: agentd-prompt');
    expect(run.code).toBe(0);
  });

  it('the use-package form works where the README says it does (29+), and fails before', { timeout: 60_000 }, async () => {
    expect(usePackage).toContain('Emacs 29+');
    const major = Number(/major (\d+)/.exec((await load('')).output)?.[1]);
    const run = await load(usePackage!);
    if (major >= 29) {
      expect(run.output).toContain('C-c a p: agentd-prompt');
      expect(run.code).toBe(0);
    } else {
      expect(run.output).toMatch(/use-package/);
      expect(run.code).not.toBe(0);
    }
  });
});

describe('the Neovim help', () => {
  it('names the command the plugin really starts', () => {
    const config = readFileSync(join(root, 'clients/neovim/lua/agentd/config.lua'), 'utf8');
    const cmd = /cmd = \{ ([^}]*) \}/.exec(config)![1]!.split(',').map((part) => part.trim().replace(/'/g, '')).join(' ');
    expect(cmd).toBe('agentd acp');
    const help = readFileSync(join(root, 'clients/neovim/doc/agentd.txt'), 'utf8');
    expect(help).toContain(`The plugin starts \`${cmd}\` on first use`);
    expect(help).not.toMatch(/plugin starts `agentd serve --stdio`/);
  });
});
