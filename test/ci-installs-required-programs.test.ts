import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * A suite that needs a program outside Node names its Debian package (requireProgram in
 * test/support/required-program.ts) and fails under CI=true when the program is missing, so
 * .ci/run must install every such package on a clean machine. This ties the two: a new
 * suite's package that .ci/run forgets fails here, on any machine, before CI does.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function testSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testSources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every `debianPackage: '…'` the test sources name, with the files naming it. */
function packagesAskedFor(): Map<string, string[]> {
  const asked = new Map<string, string[]>();
  for (const file of testSources(join(ROOT, 'test'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/debianPackage: '([a-z0-9.+-]+)'/g)) {
      const name = match[1]!;
      asked.set(name, [...(asked.get(name) ?? []), relative(ROOT, file)]);
    }
  }
  return asked;
}

/** The packages .ci/run adds to its apt-get install (`missing+=(PACKAGE)`). */
function packagesCiInstalls(): Set<string> {
  const script = readFileSync(join(ROOT, '.ci/run'), 'utf8');
  return new Set([...script.matchAll(/missing\+=\(([a-z0-9.+-]+)\)/g)].map((m) => m[1]!));
}

describe('.ci/run installs what the suites need', () => {
  it('finds the packages the suites ask for (the scan itself works)', () => {
    const asked = packagesAskedFor();
    for (const known of ['bubblewrap', 'ripgrep', 'neovim', 'emacs-nox', 'python3', 'jq', 'chromium']) expect(asked.has(known), known).toBe(true);
  });

  it('installs every Debian package a suite names in requireProgram', () => {
    const installs = packagesCiInstalls();
    const forgotten = [...packagesAskedFor()].filter(([name]) => !installs.has(name)).map(([name, files]) => `${name} (asked for by ${files.join(', ')})`);
    expect(forgotten, 'add `command -v … || missing+=(PACKAGE)` to .ci/run for each').toEqual([]);
  });
});
