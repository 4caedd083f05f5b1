import path from 'node:path';
import { z } from 'zod';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { projectBoundaries } from '../../config/repository-root.js';
import { discoverSkills, type SkillDir } from '../discover-skills.js';
import type { Tool } from '../tool.js';
import { errorResult, textResult, ToolError } from '../tool-error.js';

export { discoverSkills, type Skill, type SkillDir } from '../discover-skills.js';

/** Where the skill tool looks. */
export interface SkillToolOptions {
  /** The user's config directory (default: agentd's, from `resolveAgentdPaths`); skills in `<dir>/skills`. */
  userConfigDir?: string;
  /** Folder of skills shipped with agentd, searched last. */
  builtinSkillsDir?: string;
}

/** The skill folders for a session, in priority order: project (kept inside its repository), user, built-in. */
export function skillDirs(cwd: string, options: SkillToolOptions = {}): SkillDir[] {
  const userConfigDir = options.userConfigDir ?? resolveAgentdPaths().configDir;
  const dirs: SkillDir[] = [{ dir: path.join(cwd, '.agentd', 'skills'), root: projectBoundaries(cwd) }, { dir: path.join(userConfigDir, 'skills') }];
  return options.builtinSkillsDir ? [...dirs, { dir: options.builtinSkillsDir }] : dirs;
}

export const skillSchema = z
  .object({
    action: z.enum(['run', 'list']).optional().describe('run (default) loads a skill; list shows the available skills.'),
    name: z.string().optional().describe('Skill to load (required for run).'),
    arguments: z.string().optional().describe('Text substituted for $ARGUMENTS in the skill.'),
  })
  .strict();

export type SkillArgs = z.infer<typeof skillSchema>;

/** The skill tool: loads a SKILL.md's instructions into the conversation on demand. */
export function createSkillTool(options: SkillToolOptions = {}): Tool<SkillArgs> {
  return {
    name: 'skill',
    description:
      'Load a skill: instructions for a specific kind of task, kept out of the prompt until needed. ' +
      'Call with {name} (and optional arguments) when a listed skill fits the task, or {action: "list"} to see them.',
    inputSchema: skillSchema,
    kind: 'read',
    access: 'read',
    title: (args) => (args.action === 'list' ? 'List skills' : `Load skill ${args.name ?? ''}`),
    execute(args, ctx) {
      try {
        const skills = discoverSkills(skillDirs(ctx.cwd, options));
        if (args.action === 'list') {
          if (skills.length === 0) return Promise.resolve(textResult('No skills are installed.'));
          return Promise.resolve(textResult(skills.map((s) => `- ${s.name}: ${s.description}`).join('\n')));
        }
        if (!args.name) throw new ToolError('Pass the name of the skill to load, or action: "list" to see the skills.');
        const skill = skills.find((s) => s.name === args.name);
        if (!skill) {
          const known = skills.map((s) => s.name).join(', ') || 'none';
          throw new ToolError(`No skill named "${args.name}". Available skills: ${known}.`);
        }
        const argumentText = args.arguments ?? '';
        let body = skill.body.split('$ARGUMENTS').join(argumentText);
        if (!skill.body.includes('$ARGUMENTS') && argumentText !== '') body += `\n\nARGUMENTS: ${argumentText}`;
        return Promise.resolve(
          textResult(`Skill "${skill.name}" (${skill.file}, base directory ${path.dirname(skill.file)}):\n\n${body}`),
        );
      } catch (error) {
        return Promise.resolve(errorResult(error));
      }
    },
  };
}
