import { spawnSync } from 'node:child_process';
import { it } from 'vitest';

/** A program outside Node that a suite runs for real, and the Debian package that brings it. */
export interface RequiredProgram {
  /** The command looked up on PATH (`nvim`, `emacs`, `bwrap`, `python3`). */
  command: string;
  /** Arguments that make it exit 0 when it works; `--version` by default. */
  probeArgs?: string[];
  /** The Debian package to install (`neovim`, `emacs-nox`). */
  debianPackage: string;
  /** What needs it, as the start of a sentence: "the Neovim client tests". */
  neededBy: string;
}

/** Lines already printed, so one missing program is named once per test worker. */
const announced = new Set<string>();

/**
 * Whether `program` runs here. When it does not, on a developer's machine the suite is to
 * be skipped (the caller's `describe.skipIf`) with one line on stderr naming the program and
 * the package; under `CI=true` (as .ci/run sets) a failing test is registered instead, so a
 * CI machine missing an install step fails loudly and never skips a suite silently.
 */
export function requireProgram(program: RequiredProgram): boolean {
  const probe = spawnSync(program.command, program.probeArgs ?? ['--version'], { stdio: 'ignore' });
  if (probe.status === 0) return true;
  const line = `${program.neededBy} need ${program.command}, which is not installed here: apt-get install ${program.debianPackage}`;
  if (process.env.CI === 'true') {
    it(`has ${program.command} for ${program.neededBy}`, () => {
      throw new Error(`${line} (.ci/run installs it; CI=true does not skip suites)`);
    });
  } else if (!announced.has(line)) {
    announced.add(line);
    process.stderr.write(`skipped: ${line}\n`);
  }
  return false;
}

/** bubblewrap able to build a sandbox here (user namespaces allowed), as the bash tool needs it. */
export const BUBBLEWRAP: RequiredProgram = {
  command: 'bwrap',
  probeArgs: ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-all', 'true'],
  debianPackage: 'bubblewrap',
  neededBy: 'the sandbox tests',
};

/** ripgrep, which the grep and glob tools run (`@vscode/ripgrep` downloads it from GitHub, so PATH's). */
export const RIPGREP: RequiredProgram = { command: 'rg', debianPackage: 'ripgrep', neededBy: 'the grep and glob tests' };

/** python3, which drives the terminal tests' pseudo-terminal (test/support/run-in-pty.py). */
export const PYTHON3: RequiredProgram = { command: 'python3', debianPackage: 'python3', neededBy: 'the terminal tests' };

/** Debian's Chromium, which the dashboard's end-to-end tests drive headless through playwright-core. */
export const CHROMIUM: RequiredProgram = { command: 'chromium', debianPackage: 'chromium', neededBy: 'the dashboard browser tests' };
