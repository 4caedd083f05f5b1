import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from './daemon-process.js';

/**
 * A folder holding an `agentd` command that runs the built CLI with this Node, as
 * `npm link` would install it: put `dir` first on PATH to run README commands as printed.
 */
export function agentdOnPath(): { dir: string; path(env: NodeJS.ProcessEnv): string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'agentd-bin-'));
  writeFileSync(join(dir, 'agentd'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
  chmodSync(join(dir, 'agentd'), 0o755);
  return { dir, path: (env) => `${dir}:${env.PATH ?? ''}`, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
