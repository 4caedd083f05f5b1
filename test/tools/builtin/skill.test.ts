import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSkillTool, discoverSkills, skillDirs } from '../../../src/tools/builtin/skill.js';
import type { SkillProblem } from '../../../src/tools/discover-skills.js';
import { makeContext, makeTempDir, textOf, type TempDir } from '../tool-test-context.js';

describe('skill', () => {
  let workspace: TempDir;
  let userConfig: TempDir;
  beforeEach(() => {
    workspace = makeTempDir();
    userConfig = makeTempDir();
  });
  afterEach(() => {
    workspace.cleanup();
    userConfig.cleanup();
  });

  const addSkill = (root: string, folder: string, text: string): void => {
    fs.mkdirSync(path.join(root, folder), { recursive: true });
    fs.writeFileSync(path.join(root, folder, 'SKILL.md'), text);
  };
  const projectSkills = (): string => path.join(workspace.dir, '.agentd', 'skills');
  const userSkills = (): string => path.join(userConfig.dir, 'skills');

  it('discovers project skills before user skills, first of a name wins', () => {
    addSkill(projectSkills(), 'deploy', '---\nname: deploy\ndescription: Project deploy steps\n---\nproject body\n');
    addSkill(userSkills(), 'deploy', '---\nname: deploy\ndescription: User deploy steps\n---\nuser body\n');
    addSkill(userSkills(), 'review', '---\ndescription: Review a diff\n---\nreview body\n');
    const skills = discoverSkills(skillDirs(workspace.dir, { userConfigDir: userConfig.dir }));
    expect(skills.map((s) => [s.name, s.description, s.body])).toEqual([
      ['deploy', 'Project deploy steps', 'project body'],
      ['review', 'Review a diff', 'review body'],
    ]);
  });

  it('reports broken skills instead of loading them, and never evaluates YAML tags', () => {
    addSkill(userSkills(), 'nofront', 'just text\n');
    addSkill(userSkills(), 'nodesc', '---\nname: nodesc\n---\nbody\n');
    addSkill(userSkills(), 'jsy', '---\nname: jsy\ndescription: !!js/function "function () { return 1 }"\n---\nbody\n');
    const problems: SkillProblem[] = [];
    const skills = discoverSkills([{ dir: userSkills() }], (p) => problems.push(p));
    // An unknown tag such as !!js/function stays plain text: nothing is evaluated.
    expect(skills.map((s) => [s.name, s.description])).toEqual([['jsy', 'function () { return 1 }']]);
    expect(problems.map((p) => path.basename(path.dirname(p.file))).sort()).toEqual(['nodesc', 'nofront']);
    expect(problems.find((p) => p.file.includes('nodesc'))?.message).toContain('description is missing');
  });

  it('loads a skill with $ARGUMENTS substituted, and lists skills', async () => {
    addSkill(projectSkills(), 'greet', '---\nname: greet\ndescription: Say hello\n---\nSay hello to $ARGUMENTS twice: $ARGUMENTS.\n');
    addSkill(projectSkills(), 'plain', '---\nname: plain\ndescription: No placeholder\n---\nDo the thing.\n');
    const tool = createSkillTool({ userConfigDir: userConfig.dir });
    const ctx = makeContext(workspace.dir);
    const loaded = textOf(await tool.execute({ name: 'greet', arguments: 'Ada' }, ctx));
    expect(loaded).toContain('Say hello to Ada twice: Ada.');
    expect(textOf(await tool.execute({ name: 'plain', arguments: 'x=1' }, ctx))).toContain('Do the thing.\n\nARGUMENTS: x=1');
    expect(textOf(await tool.execute({ action: 'list' }, ctx))).toBe('- greet: Say hello\n- plain: No placeholder');
    const missing = await tool.execute({ name: 'nope' }, ctx);
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('Available skills: greet, plain');
  });
});
