import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBashTool } from '../../../src/tools/builtin/bash.js';
import type { PermissionRuleSet } from '../../../src/tools/permissions/match-permission-rules.js';
import { decidePermission } from '../../../src/tools/permissions/permission-mode.js';
import type { PermissionMode } from '../../../src/tools/permissions/permission-modes.js';
import { makeTempDir, type TempDir } from '../tool-test-context.js';
import { sessionPermissionHarness } from './session-permission-harness.js';

/**
 * F5: the command judge fails closed. Whatever bash evaluates beyond what the parser sees
 * (arithmetic, `[[ -v ]]`, brace/ANSI-C/IFS words, globbed or computed names, shells fed
 * on stdin) never rides an allow rule and counts as matching every deny and ask rule.
 */
const cwd = '/tmp/agentd-project';
const bash = (command: string, rules: PermissionRuleSet[], mode: PermissionMode = 'ask') =>
  decidePermission({ rules, mode, tool: 'bash', access: 'execute', args: { command }, cwd });

describe('[F5 command-judge] allow rules do not cover what bash evaluates', () => {
  it.each([
    ['bash(ls:*)', "ls && [[ 1 -eq 'a[$(touch pwned)]' ]]"],
    ['bash(ls:*)', "ls && [[ 'a[$(touch pwned)]' -lt 2 ]]"],
    ['bash(git status)', "git status && (( 'a[$(touch pwned)]' ))"],
    ['bash(git status)', "git status; [[ -v 'a[$(touch pwned)]' ]]"],
    ['bash(ls:*)', "ls && [ -v 'a[$(touch pwned)]' ]"],
    ['bash(ls:*)', "ls && [ \"-v\" 'a[$(touch pwned)]' ]"],
    ['bash(ls:*)', 'ls && [ $op "$name" ]'],
    ['bash(ls:*)', "ls && test -v 'a[$(touch pwned)]'"],
    ['bash(ls:*)', "ls && test -R 'a[$(touch pwned)]'"],
    ['bash(echo:*)', "echo $(( 'a[$(touch pwned)]' ))"],
    ['bash(echo:*)', "echo $[ 'a[$(touch pwned)]' ]"],
    ['bash(echo:*)', 'echo "${x:-$(( y ))}"'],
    ['bash(echo:*)', 'echo ${x:y}'],
    ['bash(echo:*)', 'echo ${!x}'],
    ['bash(echo:*)', 'echo ${x@P}'],
    ['bash(echo:*)', 'echo ${a[$i]}'],
    ['bash(echo:*)', 'echo {a,b}'],
    ['bash(echo:*)', "echo $'\\x41'"],
    ['bash(echo:*)', 'echo $"hello"'],
    ['bash(ls:*)', "ls && let 'a[$(touch pwned)]'"],
    ['bash(printf:*)', "printf -v 'a[$(touch pwned)]' x"],
    ['bash(read:*)', "read 'a[$(touch pwned)]' < /dev/null"],
    ['bash(mapfile:*)', "mapfile -C 'touch pwned' -c 1 x < /dev/null"],
    ['bash(ls:*)', "ls && for (( i = 'a[$(touch pwned)]'; i < 1; i++ )); do ls; done"],
    ['bash(echo:*)', "echo ok && trap 'touch pwned' EXIT"],
    ['bash(echo:*)', 'echo ok && source ./x.sh'],
    ['bash(echo:*)', 'echo ok && . ./x.sh'],
    ['bash(echo:*)', 'echo ok && alias echo=rm'],
    ['bash(ls:*)', "ls | sh"],
  ])('[F5 command-judge] %s does not allow %j: it asks, and deny mode refuses', async (rule, command) => {
    expect(await bash(command, [{ allow: [rule] }])).toBe('ask');
    expect(await bash(command, [{ allow: [rule] }], 'deny')).toBe('deny');
  });
});

describe('[F5 command-judge] deny rules catch every spelling, even in bypass mode', () => {
  const denyRm = [{ deny: ['bash(rm:*)'] }];
  it.each([
    // Spellings bash turns into rm.
    '{rm,-f,x}',
    "$'\\x72m' -f x",
    '$"rm" -f x',
    'rm${IFS}-f${IFS}x',
    '/???/rm -f x',
    '/bin/r? -f x',
    '/bin/[r]m -f x',
    '"$(echo rm)" -f x',
    '`echo rm` -f x',
    '${CMD} -f x',
    // Shells after option shifts, and shells reading their input.
    "sh -c -- 'rm -f x'",
    "sh -e -c 'rm -f x'",
    "bash -xc 'rm -f x'",
    "bash --norc -c 'rm -f x'",
    "bash -o pipefail -c 'rm -f x'",
    'sh -c "$CMD"',
    "echo 'rm -f x' | sh",
    "bash <<< 'rm -f x'",
    'sh <<EOF\nrm -f x\nEOF',
    'bash -s < script.txt',
    'sh < cmds.txt',
    'echo -c "rm x" | xargs sh',
    "echo 'rm -f x' | bash /dev/stdin",
    "echo 'rm -f x' | sh /proc/self/fd/0",
    "bash <(echo 'rm -f x')",
    'BASH_ENV=./x.sh bash -c true',
    "env 'BASH_FUNC_ls%%=() { rm -f x; }' bash -c ls",
    "env -S 'rm -f x'",
    "echo 'rm x' | sudo -s",
    // Arithmetic and subscripts running a command substitution.
    "(( 'a[$(rm -f x)]' ))",
    "ls && [[ 1 -eq 'a[$(rm -f x)]' ]]",
    "[[ -v 'a[$(rm -f x)]' ]]",
    "test -v 'a[$(rm -f x)]'",
    "let 'a[$(rm -f x)]'",
    "printf -v 'a[$(rm -f x)]' y",
    "read 'a[$(rm -f x)]' < /dev/null",
    "declare 'a[$(rm -f x)]'=1",
    "declare -i n; n='a[$(rm -f x)]'",
    'x=a; echo ${!x}',
    "x='$(rm -f x)'; echo ${x@P}",
    "PS4='$(rm -f x)'; set -x; true",
    "PS4='$(rm -f x)' bash -xc true",
    "trap 'rm -f x' EXIT",
    "eval \"$CMD\"",
    // Wrappers, with their options shifted.
    'find . -name x -exec rm -f {} \\;',
    'find . -execdir rm {} +',
    'find . -ok rm {} \\;',
    'find . -okdir rm {} \\;',
    "script -qc 'rm -f x' /dev/null",
    'chrt -f 10 rm -f x',
    'taskset -c 0 rm -f x',
    'unshare -r rm -f x',
    'setpriv --reuid 1000 rm -f x',
    'runuser -u me -- rm -f x',
    "runuser me -c 'rm -f x'",
    "su -c 'rm -f x' me",
    'parallel rm ::: x',
    "parallel 'echo {}; rm {}' ::: x",
    "watch -n 5 'ls; rm -f x'",
    'nice -n 5 rm -f x',
    'timeout -s KILL 5 rm -f x',
    'sudo -u someone rm -f x',
    'env -i A=b rm -f x',
    'stdbuf -oL rm -f x',
    'ionice -c3 rm -f x',
    'nohup rm -f x',
    'time -p rm -f x',
    'command -p rm -f x',
    'builtin eval "rm -f x"',
    'doas rm -f x',
    'chroot / rm -f x',
    'flock lockfile rm -f x',
    "flock lockfile -c 'rm -f x'",
    'xargs -I{} rm {}',
    'busybox rm -f x',
    'exec -a name rm -f x',
    'coproc rm -f x',
    "ssh host 'rm -f x'",
    'r\\\nm -f x',
    "sh -c 'r\\\nm -f x'",
    '# note \\\nrm -f x',
    'exec {a[$i]}>/dev/null; rm -f x',
    `${'watch '.repeat(60)}rm -f x`,
    `${'eval '.repeat(8)}rm -f x`,
  ])('[F5 command-judge] deny bash(rm:*) refuses %j in bypass mode', async (command) => {
    expect(await bash(command, denyRm, 'bypass')).toBe('deny');
  });

  it('[F5 command-judge] deny bash(rm:*) refuses rm nested in 5,000 command substitutions (too deep to walk) in bypass mode', async () => {
    const deep = `echo ${'$('.repeat(5000)}rm -f x${')'.repeat(5000)}`;
    expect(await bash(deep, denyRm, 'bypass')).toBe('deny');
    expect(await bash(deep, [{ allow: ['bash(echo:*)', 'bash(rm:*)'] }])).toBe('ask');
  });

  it.each([
    ["ls && (( 'a[$(rm x)]' ))", 'ask'],
    ['echo {a,b}', 'acceptEdits'],
  ] as const)('[F5 command-judge] an ask rule asks about %j (%s mode), even beside an allow rule for it', async (command, mode) => {
    expect(await bash(command, [{ allow: ['bash(ls:*)', 'bash(echo:*)'], ask: ['bash(rm:*)'] }], mode)).toBe('ask');
  });
});

describe('[F5 command-judge] everyday lines still ride their allow rules and pass deny rules', () => {
  it.each([
    ['bash(git status)', 'git status'],
    ['bash(npm test:*) bash(tail:*)', 'npm test 2>&1 | tail -5'],
    ['bash(ls:*) bash(cat:*)', 'ls -la && cat README.md'],
    ['bash(grep:*)', 'grep -rn "foo bar" src'],
    ['bash(echo:*)', "echo 'quoted words' \"double quoted without expansion\""],
    ['bash(cat:*)', '[ -f README.md ] && cat README.md'],
    ['bash(echo:*)', '[ -n "$HOME" ] && echo ok'],
    ['bash(echo:*)', '[ "$HOME" = /root ] && echo ok'],
    ['bash(ls:*)', 'ls *.ts src/**/x'],
    ['bash(git log:*)', "git log --format='%H' HEAD@{1}"],
    ['bash(find:*)', "find . -name '*.ts' -newer x"],
    ['bash(docker run:*)', 'docker run \\\n  --rm -it image'],
  ])('[F5 command-judge] %s allows %j', async (rules, command) => {
    expect(await bash(command, [{ allow: rules.split(' bash').map((r, i) => (i === 0 ? r : `bash${r}`)) }])).toBe('allow');
  });

  it.each([
    'git status',
    'npm test 2>&1 | tail -5',
    '[ -f "$f" ] && echo ok',
    'for f in *.ts; do echo "$f"; done',
    'export PATH="$PATH:/x" && npm test',
    'while read -r line; do echo "$line"; done < list.txt',
    'echo "${HOME:-/root}" ${#PATH} "${arr[@]}"',
    'cat <<EOF\nhello $USER\nEOF',
  ])('[F5 command-judge] deny bash(rm:*) in bypass mode still runs %j', async (command) => {
    expect(await bash(command, [{ deny: ['bash(rm:*)'] }], 'bypass')).toBe('allow');
  });
});

describe('[F5 command-judge] bash really evaluates these lines (why the judge refuses them)', () => {
  let ws: TempDir;
  beforeEach(() => {
    ws = makeTempDir('agentd-judge-');
  });
  afterEach(() => ws.cleanup());

  it.each([
    "ls && [[ 1 -eq 'a[$(touch pwned)]' ]]",
    "(( 'a[$(touch pwned)]' ))",
    "[[ -v 'a[$(touch pwned)]' ]]",
    "[ -v 'a[$(touch pwned)]' ]",
    "printf -v 'a[$(touch pwned)]' x",
    "x='$(touch pwned)'; echo ${x@P}",
    '{touch,pwned}',
    "$'\\x74ouch' pwned",
    'touch${IFS}pwned',
    "sh -c -- 'touch pwned'",
    "echo 'touch pwned' | sh",
    "bash <<< 'touch pwned'",
    'tou\\\nch pwned',
  ])('[F5 command-judge] bash runs the hidden command in %j, and deny bash(touch:*) refuses it in bypass mode', async (command) => {
    const run = spawnSync('bash', ['-c', command], { cwd: ws.dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    expect(existsSync(path.join(ws.dir, 'pwned'))).toBe(true);
    expect(await bash(command, [{ allow: ['bash(ls:*)', 'bash(echo:*)'], deny: ['bash(touch:*)'] }], 'bypass')).toBe('deny');
  });

  it('[F5 command-judge] the refusal names the construct, for the model and the user', async () => {
    const refused = sessionPermissionHarness({ cwd: ws.dir, dataDir: ws.dir, mode: 'bypass', rules: [{ deny: ['bash(rm:*)'] }], answer: () => 'allow_once' });
    const { permit } = await refused.run(createBashTool(), { command: "ls && (( 'a[$(rm -rf ~)]' ))" });
    expect(permit).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('it counts as matching every deny and ask rule, because bash evaluates what the rules cannot check'),
    });
    expect(permit).toMatchObject({ reason: expect.stringContaining("(( 'a[$(rm -rf ~)]' ))") });
    const asked = sessionPermissionHarness({ cwd: ws.dir, dataDir: ws.dir, mode: 'ask', rules: [{ allow: ['bash(echo:*)'] }], answer: () => 'reject_once' });
    await asked.run(createBashTool(), { command: "echo $'\\x41'" });
    expect(asked.questions[0]?.reason).toContain("is an ANSI-C $'…' string");
  });
});
