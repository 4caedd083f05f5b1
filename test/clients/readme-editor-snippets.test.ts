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
const hasNvim = requireProgram({ command: 'nvim', debianPackage: 'neovim', neededBy: "the README's Neovim snippets" });

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

/** What a Neovim with the README's setup loaded reports: setup ran, the chat position, each keymap's right-hand side. */
const PROBE = `lua vim.fn.writefile({ vim.fn.json_encode({
  did_setup = require('agentd.config').did_setup,
  position = require('agentd.config').options.chat.position,
  command = vim.fn.exists(':AgentdPrompt'),
  maps = { vim.fn.maparg('<leader>ap', 'n'), vim.fn.maparg('<leader>ap', 'x'), vim.fn.maparg('<leader>as', 'n'), vim.fn.maparg('<leader>ax', 'n') },
}) }, vim.env.PROBE_OUT)`;

/** The README's Neovim setup, loaded as printed by a user whose checkout is ~/src/agentd. */
describe.skipIf(!hasNvim)("the README's Neovim snippets", () => {
  const home = mkdtempSync(join(tmpdir(), 'agentd-nvim-home-'));
  mkdirSync(join(home, 'src'));
  symlinkSync(root, join(home, 'src', 'agentd'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const [lazySpec, setup] = readmeCodeBlocks('README.md', '### Neovim', 'lua');

  /** Starts `nvim --headless` with INIT as its init.lua (plugins load after it, as for a user), then probes. */
  const load = async (init: string) => {
    writeFileSync(join(home, 'init.lua'), init);
    const out = join(home, 'probe.json');
    rmSync(out, { force: true });
    const run = await runProcess('nvim', ['--headless', '-u', join(home, 'init.lua'), '-i', 'NONE', '-n', '-c', PROBE, '-c', 'qa!'], {
      env: { ...process.env, HOME: home, PROBE_OUT: out },
      timeoutMs: 30_000,
    });
    expect(run, run.stderr).toMatchObject({ code: 0 });
    return JSON.parse(readFileSync(out, 'utf8')) as { did_setup: boolean; position: string; command: number; maps: string[] };
  };

  it('the lazy.nvim spec names the plugin folder and module: lazy puts `dir` on the runtimepath and calls require(main).setup(opts)', { timeout: 30_000 }, async () => {
    // lazy.nvim itself is not installed here; this does what it does with the spec as printed.
    const init = `local spec = (function() return ${lazySpec!} end)()\nvim.opt.runtimepath:prepend(vim.fn.expand(spec.dir))\nrequire(spec.main).setup(spec.opts)\n`;
    const probe = await load(init);
    expect(probe).toMatchObject({ did_setup: true, position: 'right', command: 2 });
  });

  it('the setup block runs setup and maps the four keys to the commands it names', { timeout: 30_000 }, async () => {
    const probe = await load(`vim.opt.runtimepath:prepend('${join(root, 'clients/neovim')}')\n${setup!}`);
    expect(probe).toEqual({
      did_setup: true,
      position: 'right',
      command: 2,
      maps: ['<Cmd>AgentdPrompt<CR>', ':AgentdPrompt<CR>', '<Cmd>AgentdSteer<CR>', '<Cmd>AgentdAbort<CR>'],
    });
  });
});
