import type { Node } from 'web-tree-sitter';
import { loadBashParser } from './load-bash-parser.js';
import { literalWord, wordForMatching } from './shell-words.js';
import { unwrapCommand } from './unwrap-command.js';

/** One simple command of a command line, as permission rules see it. */
export interface ShellPart {
  /** Its words joined by single spaces: literal words unquoted, others as written. */
  text: string;
  /**
   * Further spellings deny and ask rules must catch too: the command name without its
   * directory (`/bin/rm` as `rm`), and the command a wrapper runs (`sudo rm …` as `rm …`).
   */
  variants: string[];
  /** Why no prefix rule may allow this part on its own (an env prefix, a computed name). */
  notAllowable?: string;
}

/** A command line taken apart by a real bash parser. */
export interface ParsedShellCommand {
  /** Every simple command, including those inside substitutions, subshells, loops and `sh -c`. */
  parts: ShellPart[];
  /**
   * Why the line as a whole cannot be allowed part by part (it does not parse, writes to a
   * file, defines a function, sets a variable for later commands); empty when it can.
   */
  opaque: string[];
}

/** How deep `sh -c '…'` and `eval` strings are parsed in turn before the line counts as opaque. */
const MAX_NESTING = 4;

/** Output redirection operators: each writes to (or truncates) its destination. */
const WRITE_OPERATORS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&', '&>|']);

/** Statement types that set a shell variable for the commands after them. */
const ASSIGNING = new Set(['for_statement', 'c_style_for_statement', 'select_statement']);

/**
 * Parses a bash command line into its simple commands (tree-sitter-bash), so that every
 * part of `a; b`, `a && b`, `a | b`, `a & b`, newlines, `$(b)`, backticks, `<(b)`,
 * subshells, `{ …; }`, if/while/case bodies and `sh -c 'b'` is judged on its own.
 */
export async function parseShellCommand(command: string): Promise<ParsedShellCommand> {
  const parser = await loadBashParser();
  try {
    const result: ParsedShellCommand = { parts: [], opaque: [] };
    collect(parser, command, 0, result);
    return result;
  } finally {
    parser.delete();
  }
}

function collect(parser: Awaited<ReturnType<typeof loadBashParser>>, source: string, depth: number, out: ParsedShellCommand): void {
  if (depth > MAX_NESTING) {
    out.opaque.push('it nests shell command strings too deeply to check');
    return;
  }
  const tree = parser.parse(source);
  if (!tree) {
    out.opaque.push('it could not be parsed');
    return;
  }
  try {
    if (tree.rootNode.hasError) out.opaque.push('it is not valid bash (or uses syntax the parser does not know)');
    const nested: string[] = [];
    walk(tree.rootNode, out, nested);
    for (const script of nested) collect(parser, script, depth + 1, out);
  } finally {
    tree.delete();
  }
}

function walk(node: Node, out: ParsedShellCommand, nested: string[]): void {
  switch (node.type) {
    case 'command':
      addCommand(node, out, nested);
      break;
    case 'function_definition':
      out.opaque.push(`it defines the function ${node.childForFieldName('name')?.text ?? ''}, which can shadow any command`);
      break;
    case 'declaration_command':
    case 'unset_command':
      out.opaque.push(`"${node.text}" changes variables for the commands after it`);
      break;
    case 'variable_assignment':
    case 'variable_assignments':
      // Inside a command it is that command's prefix (handled there); elsewhere it sets
      // the variable (PATH, LD_PRELOAD, …) for every later command of the line.
      if (node.parent?.type !== 'command') out.opaque.push(`"${node.text}" sets a variable for the commands after it`);
      break;
    case 'file_redirect':
      checkRedirect(node, out);
      break;
    default:
      if (ASSIGNING.has(node.type)) out.opaque.push(`the ${node.type.replace(/_statement$/, '').replace(/_/g, ' ')} loop sets a variable`);
  }
  for (const child of node.namedChildren) if (child) walk(child, out, nested);
}

function addCommand(node: Node, out: ParsedShellCommand, nested: string[]): void {
  const nameNode = node.childForFieldName('name');
  const args = node.childrenForFieldName('argument');
  const prefix = node.namedChildren.filter((c) => c?.type === 'variable_assignment').map((c) => c!.text);
  const name = nameNode ? literalWord(nameNode.namedChildren[0] ?? nameNode) : undefined;
  const literalName = name !== undefined && !/[*?[\]{}]/.test(name);
  const words = [literalName ? name : (nameNode?.text ?? ''), ...args.map(wordForMatching)];
  const literalArgs = args.map((a) => literalWord(a));
  const unwrapped = literalName ? unwrapCommand(name, literalArgs) : { variants: [], scripts: [] };
  nested.push(...unwrapped.scripts);
  const part: ShellPart = { text: words.join(' '), variants: unwrapped.variants };
  if (!literalName) part.notAllowable = `its command name ${nameNode?.text ?? '(none)'} is computed, not a literal word`;
  else if (prefix.length > 0) part.notAllowable = `it sets ${prefix.join(' ')} for the command`;
  else if (unwrapped.opaque) part.notAllowable = unwrapped.opaque;
  out.parts.push(part);
}

function checkRedirect(node: Node, out: ParsedShellCommand): void {
  const operator = node.children.find((c) => c && !c.isNamed && /[<>]/.test(c.type))?.type ?? '';
  const destination = node.childForFieldName('destination');
  if (!WRITE_OPERATORS.has(operator) || !destination) return;
  const target = literalWord(destination);
  // `2>&1`, `>&-` and `>/dev/null` write nowhere that matters.
  if (target === '/dev/null' || target === '-' || (target !== undefined && /^\d+$/.test(target))) return;
  out.opaque.push(`it writes to the file ${destination.text}`);
}
