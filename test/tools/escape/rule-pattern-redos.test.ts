import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentdConfigSchema } from '../../../src/config/config-schema.js';
import { parsePermissionRule } from '../../../src/config/parse-permission-rule.js';
import { globSchema, globTool } from '../../../src/tools/builtin/glob.js';
import { compileGlob, pathMatchesGlob } from '../../../src/tools/search/compile-glob.js';
import { matchesToolPattern } from '../../../src/tools/hooks/matches-tool-pattern.js';
import { commandMatcher } from '../../../src/tools/permissions/match-command-rules.js';
import { decidePermission } from '../../../src/tools/permissions/permission-mode.js';
import { makeContext, makeTempDir, textOf, writeFileAt, type TempDir } from '../tool-test-context.js';
import { RIPGREP, requireProgram } from '../../support/required-program.js';

const hasRipgrep = requireProgram(RIPGREP);

/**
 * F14: every pattern taken from config, a repository or the model matches in time linear
 * in the text. `a*a*…*b` against a long run of `a` takes a backtracking RegExp
 * exponential time; these tests would hang until vitest's timeout fails them.
 */
const STARS = 32;
const evil = (star: string, end = 'b'): string => `${Array.from({ length: STARS }, () => `a${star}`).join('')}${end}`;
const long = 'a'.repeat(100_000);
const cwd = '/tmp/agentd-project';

describe('[F14 linear patterns] a hostile pattern cannot freeze the daemon', () => {
  it.each([
    ['read', { path: long }, `read(${evil('*')})`],
    ['read', { path: long }, `read(${evil('**')})`],
    ['read', { path: long }, `read(${evil('?*')})`],
    ['read', { path: long }, `read(${Array.from({ length: STARS }, () => '{a,aa}*').join('')}b)`],
    ['grep', { path: long }, `read(/tmp/agentd-project/${evil('*')})`],
    ['edit', { path: long }, `edit(${evil('*')})`],
    ['bash', { command: long }, `bash(${evil('*')})`],
    ['bash', { command: `${long} x` }, `bash(${evil('*', 'b:*')})`],
    ['bash', { command: `echo ${long}` }, `bash(echo ${evil('*')})`],
    ['web_fetch', { url: `https://${long}` }, `web_fetch(https://${evil('*')})`],
    ['web_fetch', { url: `https://${'a'.repeat(250)}.example/` }, `web_fetch(domain:${evil('*')})`],
    ['skill', { name: long }, `skill(${evil('*')})`],
  ] as const)('[F14 linear patterns] %s against a deny rule of %#: decided, not hung', async (tool, args, rule) => {
    for (const effect of ['deny', 'allow'] as const) {
      const decision = await decidePermission({ rules: [{ [effect]: [rule] }], mode: 'ask', tool, access: 'read', args, cwd });
      expect(['allow', 'ask']).toContain(decision);
    }
  });

  it.each([
    ['allow', long],
    ['deny', long],
    ['allow', `${'a '.repeat(50_000)}`],
  ] as const)('[F14 linear patterns] a %s command pattern with %# wildcards matches a 100k-character line', (effect, text) => {
    expect(commandMatcher(evil('*'), effect).test(text)).toBe(false);
    expect(commandMatcher(`${evil('*')}:*`, effect).test(text)).toBe(false);
  });

  it('[F14 linear patterns] a hook tool pattern matches a 100k-character tool name', () => {
    expect(matchesToolPattern(long, [evil('*')])).toBe(false);
    expect(matchesToolPattern(`${long}b`, [evil('*')])).toBe(true);
  });

  it.each([evil('*'), evil('**'), evil('?*'), `**/${evil('*')}`, `${evil('[a-z]*')}`, `${evil('{a,b}*')}`])(
    '[F14 linear patterns] the glob %# (a model-supplied pattern) matches a 100k-character path',
    (glob) => {
      expect(compileGlob(glob).test(long)).toBe(false);
      expect(pathMatchesGlob(`x/${long}`, glob)).toBe(false);
    },
  );

  it('[F14 linear patterns] a rule pattern with more than 64 wildcards, or over 4096 characters, is a config error naming the limit', () => {
    expect(() => parsePermissionRule(`read(${'a*'.repeat(65)}b)`)).toThrow(/has 65 wildcards \("\*"\); at most 64 are allowed/);
    expect(() => parsePermissionRule(`bash(${'x'.repeat(5000)})`)).toThrow(/the pattern is 5000 characters long; at most 4096 are allowed/);
    expect(parsePermissionRule(`bash(echo ${'\\*'.repeat(100)})`).pattern).toContain('\\*');
    const config = AgentdConfigSchema.safeParse({ permissions: { deny: [`read(${'a*'.repeat(65)}b)`] } });
    expect(config.success).toBe(false);
    expect(config.error?.issues[0]?.message).toContain('at most 64 are allowed');
    expect(config.error?.issues[0]?.path).toEqual(['permissions', 'deny', 0]);
  });
});

describe.skipIf(!hasRipgrep)('[F14 linear patterns] the glob tool with a hostile pattern', () => {
  let ws: TempDir;
  beforeEach(() => {
    ws = makeTempDir('agentd-redos-');
  });
  afterEach(() => ws.cleanup());

  it('[F14 linear patterns] glob a*a*…*b/x over a directory with a 250-character name answers', async () => {
    writeFileAt(ws.dir, path.join('a'.repeat(250), 'x'), 'x');
    const result = await globTool.execute({ pattern: evil('*', 'b/x') }, makeContext(ws.dir));
    expect(textOf(result)).toContain('No files match');
    const found = await globTool.execute({ pattern: evil('*', '/x') }, makeContext(ws.dir));
    expect(textOf(found)).toContain(`${'a'.repeat(250)}/x`);
  });
});

describe('[F14 linear patterns] the glob tool bounds the pattern it is given', () => {
  it('[F14 linear patterns] a glob pattern over 1024 characters is refused with the limit named', () => {
    const parsed = globSchema.safeParse({ pattern: `${'a*'.repeat(600)}b` });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('a glob pattern may be at most 1024 characters; search with a shorter one');
  });
});
