import path from 'node:path';
import { FILE_CAPS, readRepositoryFile } from './read-repository-file.js';
import { projectBoundaries, repositoryRoot } from './repository-root.js';

/** One instructions file and its text. */
export interface AgentsFile {
  /** Absolute path. */
  path: string;
  text: string;
}

/** An instructions file that was skipped or cut, and why (with the fix). */
export interface AgentsFileProblem {
  file: string;
  message: string;
}

/** The file name of the AGENTS.md convention (https://agents.md). */
export const AGENTS_FILE_NAME = 'AGENTS.md';

/**
 * The AGENTS.md files that apply in `cwd`, in the order the system prompt lists them:
 * the user's global `<userConfigDir>/AGENTS.md` first, then the project's from the
 * repository root down to `cwd` (outermost first, so the nearest, most specific file
 * comes last and weighs most). The repository root is the nearest ancestor of `cwd`
 * holding `.git` (a directory, or a file in worktrees and submodules); outside a
 * repository only `cwd` itself is searched, so files in unrelated parent folders (the
 * home directory) are not picked up. Missing and blank files are skipped silently. A
 * project's file must be a regular file inside the repository (a link to
 * /proc/self/environ or `../elsewhere` would put that text in every model request), and
 * a file above the cap is cut (readRepositoryFile); each such case goes to `onProblem`.
 */
export async function findAgentsFiles(cwd: string, userConfigDir: string, onProblem?: (problem: AgentsFileProblem) => void): Promise<AgentsFile[]> {
  const start = path.resolve(cwd);
  const root = repositoryRoot(start) ?? start;
  const dirs: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    dirs.unshift(dir);
    if (dir === root || path.dirname(dir) === dir) break;
  }
  // The files found walking up as written, or inside the real directory's repository.
  const boundaries = [root, ...projectBoundaries(start)];
  const userFile = path.join(path.resolve(userConfigDir), AGENTS_FILE_NAME);
  const candidates = [userFile, ...dirs.map((dir) => path.join(dir, AGENTS_FILE_NAME))];
  const seen = new Set<string>();
  const files: AgentsFile[] = [];
  for (const file of candidates) {
    if (seen.has(file)) continue;
    seen.add(file);
    const result = readRepositoryFile(file, { root: file === userFile ? undefined : boundaries, cap: FILE_CAPS.prompt, overCap: 'cut' });
    if (result.kind === 'refused') onProblem?.({ file, message: `${result.message}; it is left out of the instructions` });
    if (result.kind !== 'ok') continue;
    if (result.warning !== undefined) onProblem?.({ file, message: result.warning });
    if (result.text.trim() !== '') files.push({ path: file, text: result.text.trim() });
  }
  return files;
}

/** The nearest directory from `start` upwards that holds `.git`, or undefined. */
export function findRepositoryRoot(start: string): Promise<string | undefined> {
  return Promise.resolve(repositoryRoot(start));
}
