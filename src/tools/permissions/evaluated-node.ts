import type { Node } from 'web-tree-sitter';

/**
 * Node types whose meaning the judge fully understands: the structure joining simple
 * commands, and words that expand only in ways that cannot run anything. Every other type
 * (including any a newer grammar adds) counts as evaluated.
 */
const UNDERSTOOD = new Set([
  // Structure.
  'program', 'list', 'pipeline', 'subshell', 'compound_statement', 'redirected_statement', 'negated_command',
  'if_statement', 'elif_clause', 'else_clause', 'while_statement', 'do_group', 'case_statement', 'case_item',
  'for_statement', 'function_definition', 'command', 'command_name', 'comment',
  'declaration_command', 'unset_command', 'variable_assignment', 'variable_assignments',
  'file_redirect', 'heredoc_redirect', 'herestring_redirect', 'heredoc_body', 'heredoc_start', 'heredoc_end',
  'heredoc_content', 'file_descriptor', 'test_command',
  // Words.
  'word', 'number', 'raw_string', 'string', 'string_content', 'concatenation', 'array', 'simple_expansion',
  'expansion', 'subscript', 'variable_name', 'special_variable_name', 'regex', 'command_substitution', 'process_substitution',
]);

/** Inside `[ ]` and `[[ ]]` only: the test expression's own structure. */
const TEST_EXPRESSION = new Set(['unary_expression', 'binary_expression', 'parenthesized_expression', 'test_operator']);

/** `${…}` operators that only pick or trim the value; `!`, `@`, `:offset` and subscripts evaluate. */
const PLAIN_EXPANSION_TOKENS = new Set([
  '${', '}', '#', '##', '%', '%%', '/', '//', '/#', '/%', '^', '^^', ',', ',,', ':-', '-', ':=', '=', ':+', '+', ':?', '?',
]);

/** Operators with which `[[ ]]` evaluates an operand as arithmetic or a variable reference. */
const EVALUATING_TEST_OPERATORS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-v', '-R']);

const ARITHMETIC = 'bash evaluates it as arithmetic, where an array subscript such as a[$(cmd)] runs cmd';

/**
 * Why bash evaluates this node in a way the permission rules cannot see (runs a command
 * hidden in a string, computes a word, expands braces), or undefined when it does not.
 * Looks at the node itself, not its children: the walker visits each of them.
 */
export function evaluatedNode(node: Node, inTest: boolean): string | undefined {
  const quoted = `"${clip(node.text)}"`;
  // Syntax errors are reported once, for the whole line, by the caller.
  if (node.isError || node.isMissing) return undefined;
  if (node.type === 'compound_statement' && node.child(0)?.type === '((') return `${quoted}: ${ARITHMETIC}`;
  if (node.type === 'arithmetic_expansion' || node.type === 'c_style_for_statement') return `${quoted}: ${ARITHMETIC}`;
  if (node.type === 'command_substitution' && node.text.startsWith('$((')) return `${quoted}: ${ARITHMETIC}`;
  if (node.type === 'expansion') {
    const token = node.children.find((c) => c && !c.isNamed && !PLAIN_EXPANSION_TOKENS.has(c.type));
    if (token) return `${quoted}: with ${token.type} bash evaluates the variable's value (indirection, an offset or a transformation can run commands)`;
  }
  if (node.type === 'test_command' && node.child(0)?.type === '[[') {
    const operator = descendants(node).find((d) => EVALUATING_TEST_OPERATORS.has(d.text) && (d.type === 'test_operator' || !d.isNamed));
    if (operator) return `${quoted}: with ${operator.text} ${ARITHMETIC} (also through a variable's value)`;
  }
  const translated = node.children.find((c, i) => c?.type === '$' && !c.isNamed && node.type !== 'simple_expansion' && node.child(i + 1)?.type === 'string');
  if (translated) return `${quoted} has a $"…" string, which bash translates through the locale`;
  if (node.type === 'ansi_c_string') return `${quoted} is an ANSI-C $'…' string, whose escapes can spell any word`;
  if (node.type === 'brace_expression') return `${quoted} is a brace expansion, which bash turns into other words`;
  if (node.type === 'subscript' && !plainIndex(node.namedChildren[1] ?? null)) return `${quoted} has an array subscript: ${ARITHMETIC}`;
  if (inTest && TEST_EXPRESSION.has(node.type)) return undefined;
  if (!node.isNamed || UNDERSTOOD.has(node.type)) return undefined;
  return `${quoted} uses ${node.type.replace(/_/g, ' ')}, which bash evaluates in ways the rules cannot check`;
}

/** `a[0]`, `a[@]`, `a[*]`: subscripts with nothing to evaluate. */
function plainIndex(index: Node | null): boolean {
  return index !== null && (/^\d+$/.test(index.text) || index.text === '@' || index.text === '*');
}

/** True when bash would brace-expand the word (`{a,b}`, `x{1..3}`): an unquoted `{…,…}` or `{…..…}`. */
export function hasBraceExpansion(node: Node): boolean {
  const skeleton = unquotedSkeleton(node);
  const open = skeleton.indexOf('{');
  const close = skeleton.lastIndexOf('}');
  if (open === -1 || close < open) return false;
  const inner = skeleton.slice(open + 1, close);
  return inner.includes(',') || inner.includes('..');
}

/** True for a `{name[…]}` redirection variable (`exec {a[$(cmd)]}>x`): bash evaluates its subscript. */
export function hasFdVariableSubscript(node: Node): boolean {
  const skeleton = unquotedSkeleton(node);
  return skeleton.startsWith('{') && skeleton.includes('[');
}

/** The word with quoted parts and escaped characters replaced by `_`, so only unquoted syntax is left. */
function unquotedSkeleton(node: Node): string {
  if (node.type === 'word') return node.text.replace(/\\[\s\S]/g, '_');
  if (node.type === 'concatenation') return node.namedChildren.map((c) => (c ? unquotedSkeleton(c) : '')).join('');
  return '_';
}

function descendants(node: Node): Node[] {
  const out: Node[] = [];
  const stack = [...node.children];
  while (stack.length > 0) {
    const n = stack.pop();
    if (!n) continue;
    out.push(n);
    stack.push(...n.children);
  }
  return out;
}

/** A node's text shortened for a message. */
export function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
