import { describe, expect, it } from 'vitest';
import { parseShellCommand } from '../../../src/tools/permissions/parse-shell-command.js';

describe('parseShellCommand', () => {
  it.each([
    ['npm test', ['npm test']],
    ['npm test && rm -rf x', ['npm test', 'rm -rf x']],
    ['a; b || c | d & e\nf', ['a', 'b', 'c', 'd', 'e', 'f']],
    ['echo "a && b"; echo \'c; d\'', ['echo "a && b"', "echo 'c; d'"]],
    ['echo a\\;b', ['echo a\\;b']],
    ['"npm" \'test\' x\\y', ['npm test xy']],
    ['echo $(rm x) `id` <(ls)', ['echo $(rm x) `id` <(ls)', 'rm x', 'id', 'ls']],
    ['( cd sub; make ) && { a; b; }', ['cd sub', 'make', 'a', 'b']],
    ['if true; then rm a; else rm b; fi; while false; do x; done; case y in z) w;; esac', ['true', 'rm a', 'rm b', 'false', 'x', 'w']],
    ["bash -c 'rm -rf /; ls'", ["bash -c 'rm -rf /; ls'", 'rm -rf /', 'ls']],
    ['eval "curl x | sh"', ['eval "curl x | sh"', 'curl x', 'sh']],
  ])('%j has the parts %j', async (command, parts) => {
    const parsed = await parseShellCommand(command);
    expect(parsed.parts.map((p) => p.text)).toEqual(parts);
    expect(parsed.opaque).toEqual([]);
  });

  it.each([
    ['npm test > ~/.bashrc', 'it writes to the file ~/.bashrc'],
    ['npm test &>> log.txt', 'it writes to the file log.txt'],
    ['npm() { rm -rf ~; }; npm test', 'it defines the function npm, which can shadow any command'],
    ['PATH=.; npm test', '"PATH=." sets a variable for the commands after it'],
    ['export PATH=.; npm test', '"export PATH=." changes variables for the commands after it'],
    ['for PATH in .; do npm test; done', 'the for loop sets a variable'],
  ])('%j cannot be allowed part by part: %s', async (command, reason) => {
    expect((await parseShellCommand(command)).opaque).toContain(reason);
  });

  it.each(['npm test 2>&1', 'npm test >/dev/null 2>/dev/null', 'npm test < input.txt', 'cat <<EOF\nhi\nEOF'])(
    '%j redirects nowhere that matters',
    async (command) => {
      expect((await parseShellCommand(command)).opaque).toEqual([]);
    },
  );

  it.each([
    ['LD_PRELOAD=x npm test', 'it sets LD_PRELOAD=x for the command'],
    ['$X foo', 'its command name $X is computed, not a literal word'],
    ['"$(echo rm)" -rf /', 'its command name "$(echo rm)" is computed, not a literal word'],
    ['/bin/r? -rf /', 'its command name /bin/r? is computed, not a literal word'],
  ])('%j has a part no prefix rule may allow: %s', async (command, reason) => {
    expect((await parseShellCommand(command)).parts[0]?.notAllowable).toBe(reason);
  });

  it.each([
    ['npm test (', 'it is not valid bash (or uses syntax the parser does not know), and bash may still run part of it'],
    ['echo "unterminated', 'it is not valid bash (or uses syntax the parser does not know), and bash may still run part of it'],
    ['sh -c "$CMD"', 'sh -c is given a computed command string'],
    ['$X foo', 'its command name $X is computed (an expansion, a glob or a quoted escape), not a literal word'],
  ])('%j is evaluated beyond what the parser sees: %s', async (command, reason) => {
    expect((await parseShellCommand(command)).evaluated).toContain(reason);
  });

  it('spells wrapped and path-qualified commands the way deny rules look for them', async () => {
    const [part] = (await parseShellCommand('sudo -u root /bin/rm -rf /')).parts;
    expect(part?.variants).toEqual(expect.arrayContaining(['rm -rf /', '/bin/rm -rf /']));
    const [timed] = (await parseShellCommand('timeout 5 nohup rm x')).parts;
    expect(timed?.variants).toContain('rm x');
  });
});
