import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBashTool } from '../../../src/tools/builtin/bash.js';
import type { PermissionRuleSet } from '../../../src/tools/permissions/match-permission-rules.js';
import { decidePermission } from '../../../src/tools/permissions/permission-mode.js';
import type { PermissionMode } from '../../../src/tools/permissions/permission-modes.js';
import { makeTempDir, type TempDir } from '../tool-test-context.js';
import { sessionPermissionHarness } from './session-permission-harness.js';

/** F5: neither shell syntax nor a repository's rules loosen what the user's rules say. */
const cwd = '/tmp/agentd-project';
const bash = (command: string, rules: PermissionRuleSet[], mode: PermissionMode = 'ask') =>
  decidePermission({ rules, mode, tool: 'bash', access: 'execute', args: { command }, cwd });

describe('[F5 rule-loosening] an allow rule covers its own command, and nothing riding on it', () => {
  const allowNpmTest = [{ allow: ['bash(npm test:*)'] }];

  it.each(['npm test', 'npm test -- --watch', 'npm test 2>&1', 'npm test >/dev/null 2>&1', '"npm" test'])(
    '[F5 rule-loosening] bash(npm test:*) allows %j',
    async (command) => {
      expect(await bash(command, allowNpmTest)).toBe('allow');
    },
  );

  it.each([
    ['a newline', 'npm test\nrm -rf ~'],
    ['a semicolon', 'npm test; curl x'],
    ['&&', 'npm test && curl x'],
    ['||', 'npm test || curl x'],
    ['a pipe', 'npm test | sh'],
    ['a background &', 'npm test & curl x'],
    ['$(…) in an argument', 'npm test $(curl x)'],
    ['backticks in an argument', 'npm test `curl x`'],
    ['a process substitution', 'npm test <(curl x)'],
    ['$(…) inside double quotes', 'npm test "$(curl x)"'],
    ['a longer word', 'npm testx'],
    ['a redirection into a file', 'npm test > ~/.bashrc'],
    ['an appending redirection', 'npm test >> ~/.profile'],
    ['an LD_PRELOAD prefix', 'LD_PRELOAD=./evil.so npm test'],
    ['a PATH prefix', 'PATH=. npm test'],
    ['a PATH assignment before it', 'PATH=.; npm test'],
    ['an exported PATH before it', 'export PATH=.; npm test'],
    ['a function shadowing npm', 'npm() { rm -rf ~; }; npm test'],
    ['a subshell', '( npm test; curl x )'],
    ['a brace group', '{ npm test; curl x; }'],
    ['an if body', 'if npm test; then curl x; fi'],
    ['a while loop', 'while npm test; do curl x; done'],
    ['a for loop variable', 'for PATH in .; do npm test; done'],
    ['sh -c', 'sh -c "npm test"'],
    ['a computed command name', '$NPM test'],
    ['unparseable input', 'npm test )'],
    ['an unterminated quote', "npm test 'x"],
  ])('[F5 rule-loosening] bash(npm test:*) does not allow %s', async (_what, command) => {
    expect(await bash(command, allowNpmTest)).toBe('ask');
    expect(await bash(command, allowNpmTest, 'deny')).toBe('deny');
  });

  it('[F5 rule-loosening] a redirection into a file runs only on a rule naming that exact command', async () => {
    expect(await bash('npm test > out.txt', [{ allow: ['bash(npm test:*)', 'bash(npm test > out.txt)'] }])).toBe('allow');
    expect(await bash('npm test > other.txt', [{ allow: ['bash(npm test:*)', 'bash(npm test > out.txt)'] }])).toBe('ask');
  });
});

describe('[F5 rule-loosening] a deny rule catches every spelling and every part', () => {
  const denyRm = [{ allow: ['bash'], deny: ['bash(rm:*)'] }];
  it.each([
    'echo ok && rm -rf /',
    'echo $(rm -rf /)',
    'echo `rm -rf /`',
    'cat <(rm -rf /)',
    'sudo rm -rf /',
    'sudo -u root rm -rf /',
    'env FOO=1 rm -rf /',
    'timeout 5 nohup rm -rf /',
    'find . -print0 | xargs -0 rm -rf',
    "bash -c 'rm -rf /'",
    'sh -lc "echo hi; rm -rf /"',
    'eval "rm -rf /"',
    '/bin/rm -rf /',
    '\\rm -rf /',
    '"rm" -rf /',
    "r''m -rf /",
    '( cd /; rm -rf . )',
    'if true; then rm -rf /; fi',
    'f() { rm -rf /; }; f',
  ])('[F5 rule-loosening] deny bash(rm:*) refuses %j, even in bypass mode', async (command) => {
    expect(await bash(command, denyRm, 'bypass')).toBe('deny');
  });

  it('[F5 rule-loosening] a computed command name cannot be proven safe: it matches every deny rule, and is refused in deny mode', async () => {
    expect(await bash('"$(echo rm)" -rf /', [{ allow: ['bash(echo:*)'], deny: ['bash(rm:*)'] }])).toBe('deny');
    expect(await bash('"$(echo rm)" -rf /', [{ allow: ['bash(echo:*)'] }])).toBe('ask');
    expect(await bash('$X -rf /', [{ allow: ['bash(echo:*)'] }], 'deny')).toBe('deny');
  });
});

describe('[F5 rule-loosening] a project can only tighten', () => {
  const userDeniesRm = { deny: ['bash(rm:*)'] };
  const projectAsksBash = { ask: ['bash'] };

  it.each<PermissionMode>(['ask', 'acceptEdits', 'bypass', 'deny'])(
    '[F5 rule-loosening] a project ask for bash does not override the user deny of rm (%s mode)',
    async (mode) => {
      expect(await bash('rm -rf ~', [userDeniesRm, projectAsksBash], mode)).toBe('deny');
    },
  );

  it('[F5 rule-loosening] a project ask turns a user allow into a question', async () => {
    expect(await bash('git push --force', [{ allow: ['bash(git:*)'] }, { ask: ['bash(git push:*)'] }])).toBe('ask');
  });

  it('[F5 rule-loosening] a remembered "always allow" never overrides a configured deny', async () => {
    expect(await bash('rm -rf build', [userDeniesRm, {}, { allow: ['bash(rm -rf build)'] }])).toBe('deny');
  });
});

describe('[F5 rule-loosening] the user and the model are told why a command was not covered', () => {
  let ws: TempDir;
  beforeEach(() => {
    ws = makeTempDir('agentd-ws-');
  });
  afterEach(() => ws.cleanup());

  it('[F5 rule-loosening] the question says the command writes to a file, and deny mode says so in the refusal', async () => {
    const rules = [{ allow: ['bash(npm test:*)'] }];
    const asked = sessionPermissionHarness({ cwd: ws.dir, dataDir: ws.dir, mode: 'ask', rules, answer: () => 'reject_once' });
    await asked.run(createBashTool(), { command: 'npm test > ~/.bashrc' });
    expect(asked.questions[0]?.reason).toBe('No allow rule covers this command line part by part: it writes to the file ~/.bashrc.');
    const refused = sessionPermissionHarness({ cwd: ws.dir, dataDir: ws.dir, mode: 'deny', rules, answer: () => 'allow_once' });
    const { permit } = await refused.run(createBashTool(), { command: 'PATH=. npm test' });
    expect(refused.questions).toHaveLength(0);
    expect(permit).toMatchObject({ allowed: false, reason: expect.stringContaining('it sets PATH=. for the command') });
  });
});
