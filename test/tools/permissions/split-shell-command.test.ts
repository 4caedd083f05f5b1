import { describe, expect, it } from 'vitest';
import { splitShellCommand } from '../../../src/tools/permissions/split-shell-command.js';

describe('splitShellCommand', () => {
  it.each([
    ['npm test', ['npm test']],
    ['npm test && rm -rf x', ['npm test', 'rm -rf x']],
    ['a; b || c | d & e\nf', ['a', 'b', 'c', 'd', 'e', 'f']],
    ['echo "a && b"; echo \'c; d\'', ['echo "a && b"', "echo 'c; d'"]],
    ['echo a\\;b', ['echo a\\;b']],
    ['echo "say \\"hi\\"; ok"', ['echo "say \\"hi\\"; ok"']],
    ['  ;; ', []],
  ])('%j → %j', (command, parts) => {
    expect(splitShellCommand(command)).toEqual(parts);
  });
});
