import { promises as fs } from 'node:fs';
import path from 'node:path';

/** One instructions file and its text. */
export interface AgentsFile {
  /** Absolute path. */
  path: string;
  text: string;
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
 * home directory) are not picked up. Missing, unreadable and blank files are skipped.
 */
export async function findAgentsFiles(cwd: string, userConfigDir: string): Promise<AgentsFile[]> {
  const start = path.resolve(cwd);
  const root = (await findRepositoryRoot(start)) ?? start;
  const dirs: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    dirs.unshift(dir);
    if (dir === root || path.dirname(dir) === dir) break;
  }
  const candidates = [path.join(path.resolve(userConfigDir), AGENTS_FILE_NAME), ...dirs.map((dir) => path.join(dir, AGENTS_FILE_NAME))];
  const seen = new Set<string>();
  const files: AgentsFile[] = [];
  for (const file of candidates) {
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await readText(file);
    if (text !== undefined && text.trim() !== '') files.push({ path: file, text: text.trim() });
  }
  return files;
}

/** Repository roots already found, per start directory: a project does not move between turns. */
const roots = new Map<string, Promise<string | undefined>>();

/** The nearest directory from `start` upwards that holds `.git`, or undefined. */
export function findRepositoryRoot(start: string): Promise<string | undefined> {
  const key = path.resolve(start);
  let root = roots.get(key);
  if (!root) {
    root = searchRepositoryRoot(key);
    roots.set(key, root);
  }
  return root;
}

async function searchRepositoryRoot(start: string): Promise<string | undefined> {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (await exists(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.stat(file);
    return true;
  } catch {
    return false;
  }
}

async function readText(file: string): Promise<string | undefined> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return undefined;
    return (await fs.readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  } catch {
    return undefined;
  }
}
