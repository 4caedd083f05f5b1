import { readdirSync } from 'node:fs';
import path from 'node:path';
import { loadYaml } from '../config/load-yaml.js';
import { FILE_CAPS, readRepositoryFile } from '../config/read-repository-file.js';

/** A skill: instructions in `<dir>/<name>/SKILL.md`, loaded on demand by the skill tool. */
export interface Skill {
  /** Name the model calls it by (front matter `name`, else the folder name). */
  name: string;
  /** When to use it; listed in the system prompt. */
  description: string;
  /** Absolute path of the SKILL.md file. */
  file: string;
  /** The Markdown after the front matter. */
  body: string;
}

/** A folder of skills. */
export interface SkillDir {
  dir: string;
  /**
   * The repository a project's skills must stay inside (a SKILL.md linking to
   * `../elsewhere` is refused); undefined for the user's and agentd's own folders.
   */
  root?: readonly string[];
}

/** A skill folder that could not be loaded, and why. */
export interface SkillProblem {
  file: string;
  message: string;
}

/** Skill names: letters, digits, `-`, `_`, `.`, as folder names allow everywhere. */
const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Finds skills in `dirs`, earlier directories first (project before user before
 * built-in): the first skill of a name wins. Front matter is YAML parsed by the `yaml`
 * package with its default core schema, which builds plain data and never runs code.
 * Each SKILL.md must be a regular file of at most FILE_CAPS.skill, inside its folder's
 * repository when it has one (readRepositoryFile). Broken skills are skipped and reported
 * through `onProblem`.
 */
export function discoverSkills(dirs: SkillDir[], onProblem?: (problem: SkillProblem) => void): Skill[] {
  const byName = new Map<string, Skill>();
  for (const { dir, root } of dirs) {
    for (const folder of listFolders(dir)) {
      const file = path.join(dir, folder, 'SKILL.md');
      const read = readRepositoryFile(file, { root, cap: FILE_CAPS.skill, overCap: 'refuse' });
      if (read.kind === 'missing') continue;
      if (read.kind === 'refused') {
        onProblem?.({ file, message: `${read.message}; the skill is skipped` });
        continue;
      }
      try {
        const skill = parseSkill(read.text, folder, file);
        if (!byName.has(skill.name)) byName.set(skill.name, skill);
      } catch (error) {
        onProblem?.({ file, message: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  return [...byName.values()];
}

function listFolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

/** Parses one SKILL.md: `---` YAML front matter `---`, then the body. */
export function parseSkill(text: string, folder: string, file: string): Skill {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const match = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(normalised);
  if (!match) throw new Error('SKILL.md must start with YAML front matter between "---" lines, with name and description.');
  // logLevel 'error': unknown tags become plain strings without a process warning.
  const front: unknown = loadYaml().parse(match[1] ?? '', { logLevel: 'error' });
  if (typeof front !== 'object' || front === null || Array.isArray(front)) {
    throw new Error('The front matter must be a YAML mapping with name and description.');
  }
  const fields = front as Record<string, unknown>;
  const name = fields.name === undefined ? folder : fields.name;
  if (typeof name !== 'string' || !SKILL_NAME.test(name)) {
    throw new Error(`name must be a string of letters, digits, ".", "-" or "_" (got ${JSON.stringify(name)}).`);
  }
  if (typeof fields.description !== 'string' || fields.description.trim() === '') {
    throw new Error('description is missing: add a one-line description saying when to use the skill.');
  }
  return { name, description: fields.description.trim(), file, body: normalised.slice(match[0].length).trim() };
}
