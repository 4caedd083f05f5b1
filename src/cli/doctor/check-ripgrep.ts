import { execFile } from 'node:child_process';
import { ripgrepPath } from '../../tools/search/ripgrep-path.js';
import { compareVersions, parseVersion } from './check-node-version.js';
import { failCheck, okCheck, warnCheck, type DoctorCheck } from './doctor-check.js';

/** glob and grep pass `--no-require-git`, which ripgrep gained in 11.0.0. */
const MINIMUM_RIPGREP = '11.0.0';
const VERSION_TIMEOUT_MS = 5000;

/** Finds the ripgrep the glob and grep tools would run (ripgrepPath) and asks it for its version. */
export async function checkRipgrep(env: NodeJS.ProcessEnv = process.env): Promise<DoctorCheck> {
  const id = 'ripgrep';
  const title = 'ripgrep';
  let rg: string;
  try {
    rg = ripgrepPath(env);
  } catch {
    return failCheck(
      id,
      title,
      'ripgrep (rg) was not found, so the glob and grep tools cannot run',
      'install it: `sudo apt-get install ripgrep` (macOS: `brew install ripgrep`), or `npm install @vscode/ripgrep` where it can download from GitHub',
    );
  }
  const output = await new Promise<{ stdout: string; error?: string }>((resolve) => {
    execFile(rg, ['--version'], { env, timeout: VERSION_TIMEOUT_MS }, (error, stdout) => {
      resolve(error ? { stdout, error: error.message } : { stdout });
    });
  });
  if (output.error !== undefined) {
    return failCheck(id, title, `${rg} does not run: ${output.error}`, 'reinstall ripgrep (`sudo apt-get install --reinstall ripgrep`)');
  }
  const firstLine = output.stdout.split('\n')[0]?.trim() ?? '';
  const version = parseVersion(firstLine.replace(/^ripgrep\s+/, ''));
  if (version === undefined) return okCheck(id, title, `${rg} (${firstLine || 'unknown version'})`);
  if (compareVersions(version, parseVersion(MINIMUM_RIPGREP) ?? [0, 0, 0]) < 0) {
    return warnCheck(id, title, `${rg} is ${firstLine}; agentd needs ${MINIMUM_RIPGREP} or newer to honour .gitignore outside git repositories`, 'install a newer ripgrep (https://github.com/BurntSushi/ripgrep/releases)');
  }
  return okCheck(id, title, `${firstLine} at ${rg}`);
}
