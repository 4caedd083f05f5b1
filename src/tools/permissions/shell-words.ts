import type { Node } from 'web-tree-sitter';

/**
 * The value bash gives a word when nothing in it expands: `rm`, `\rm`, `'rm'`, `"rm"`,
 * `r""m` are all `rm`. Undefined when the word expands (`$X`, `$(…)`, `` `…` ``, `$'…'`,
 * arithmetic), since only running the shell would tell its value.
 */
export function literalWord(node: Node): string | undefined {
  switch (node.type) {
    case 'word':
    case 'number':
      return node.text.replace(/\\(.)/gs, '$1');
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string': {
      const parts = node.namedChildren;
      if (!parts.every((p) => p?.type === 'string_content')) return undefined;
      return parts.map((p) => p!.text.replace(/\\([$`"\\\n])/g, '$1')).join('');
    }
    case 'concatenation': {
      const values = node.namedChildren.map((child) => (child ? literalWord(child) : undefined));
      return values.every((v) => v !== undefined) ? values.join('') : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * A word as permission patterns see it: its literal value when it has one and reads the
 * same unquoted (no blanks or shell characters), else the word as written, so that a
 * quoted `'test; rm -rf ~'` never reads as two words and `$(…)` stays visible.
 */
export function wordForMatching(node: Node): string {
  const value = literalWord(node);
  return value !== undefined && value !== '' && !/[\s;&|<>()$`'"\\*?[\]{}#~]/.test(value) ? value : node.text;
}
