import type { Node } from 'web-tree-sitter';
import { literalWord } from './shell-words.js';

/** Nodes that stand for one word of a `[ … ]` or `test …` command. */
const WORD_NODES = new Set([
  'word', 'number', 'string', 'raw_string', 'concatenation', 'simple_expansion', 'expansion', 'command_substitution',
  'process_substitution', 'test_operator', 'regex', 'ansi_c_string', 'translated_string', 'extglob_pattern',
]);

/** Operators of the `test` builtin that only look at their operands. */
const PLAIN_OPERATORS = new Set([
  '-a', '-b', '-c', '-d', '-e', '-f', '-g', '-h', '-k', '-p', '-r', '-s', '-t', '-u', '-w', '-x', '-G', '-L', '-N', '-O',
  '-S', '-z', '-n', '-o', '=', '==', '!=', '<', '>', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-nt', '-ot', '-ef', '!',
]);

/**
 * Why the `test` builtin (`[ … ]`, `test …`) would evaluate an operand, or undefined.
 * `-v NAME` and `-R NAME` evaluate a subscript in NAME (`[ -v 'a[$(cmd)]' ]` runs cmd;
 * bash 5.2 checked). `-eq` and friends do not in `test` (only in `[[ ]]`). A computed word
 * could itself become `-v` at run time, so it is accepted only when quoted and next to a
 * literal operator that fixes its role (`[ -f "$f" ]`, `[ "$a" = "$b" ]`).
 */
export function testCommandEvaluation(words: Node[]): string | undefined {
  const values = words.map((w) => (w.type === 'test_operator' || !w.isNamed ? w.text : literalWord(w)));
  const evaluating = values.find((v) => v === '-v' || v === '-R');
  if (evaluating) return `test ${evaluating} evaluates an array subscript in the variable name, where $(cmd) runs cmd`;
  for (let i = 0; i < words.length; i += 1) {
    if (values[i] !== undefined) continue;
    const quoted = (words[i] as Node).type === 'string';
    const fixed = PLAIN_OPERATORS.has(values[i - 1] ?? '') || PLAIN_OPERATORS.has(values[i + 1] ?? '');
    if (!quoted || !fixed) {
      return `the computed test operand ${(words[i] as Node).text} could become -v at run time, which evaluates a subscript`;
    }
  }
  return undefined;
}

/** The words of a `[ … ]` test_command in order (the brackets left out). */
export function bracketTestWords(node: Node): Node[] {
  const out: Node[] = [];
  const visit = (n: Node): void => {
    if (WORD_NODES.has(n.type) || (!n.isNamed && !['[', ']', '[[', ']]'].includes(n.type))) {
      out.push(n);
      return;
    }
    for (const child of n.children) if (child) visit(child);
  };
  for (const child of node.children) if (child) visit(child);
  return out;
}
