import type { Node } from 'web-tree-sitter';
import { loadBashParser } from './load-bash-parser.js';
import { evaluatedNode, hasBraceExpansion, hasFdVariableSubscript } from './evaluated-node.js';
import { evaluatedVariable, evaluatingBuiltin } from './evaluating-builtin.js';
import { literalWord, wordForMatching } from './shell-words.js';
import { bracketTestWords, testCommandEvaluation } from './test-command-evaluation.js';
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
   * Why the line as a whole cannot be allowed part by part (it writes to a file, defines a
   * function, sets a variable for later commands); empty when it can.
   */
  opaque: string[];
  /**
   * What bash evaluates in a way the parser cannot follow (arithmetic, `[[ -v ]]`, brace
   * and ANSI-C words, a computed or glob command name, a shell reading its input, `let`,
   * `source`, unknown syntax, …), each naming the construct. Such a line counts as
   * matching every deny and ask rule and is never allowed by a wildcard; empty when none.
   */
  evaluated: string[];
}

/** How deep `sh -c '…'` and `eval` strings are parsed in turn before the line counts as evaluated. */
const MAX_NESTING = 4;

/** How many command strings (`sh -c`, `eval`, `watch`, …) one line may hand on, at all depths together. */
const MAX_SCRIPTS = 64;

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
    const result: ParsedShellCommand = { parts: [], opaque: [], evaluated: [] };
    try {
      collect(parser, command, 0, result, { scripts: MAX_SCRIPTS });
    } catch (error) {
      // Thousands of nested `$(` overflow the walker's stack: too deep to check, so evaluated.
      if (!(error instanceof RangeError)) throw error;
      result.evaluated.push('it nests commands too deeply to check');
    }
    return { parts: result.parts, opaque: [...new Set(result.opaque)], evaluated: [...new Set(result.evaluated)] };
  } finally {
    parser.delete();
  }
}

function collect(parser: Awaited<ReturnType<typeof loadBashParser>>, source: string, depth: number, out: ParsedShellCommand, budget: { scripts: number }): void {
  if (depth > MAX_NESTING) {
    out.evaluated.push('it nests shell command strings too deeply to check');
    return;
  }
  const nested: string[] = [];
  // bash drops a backslash-newline before it splits words (`r\<newline>m` is rm), except
  // in single quotes and comments (`# x \<newline>rm y` runs rm): both readings are judged.
  const readings = source.includes('\\\n') ? [source, source.replace(/\\\n/g, '')] : [source];
  for (const reading of readings) {
    const tree = parser.parse(reading);
    if (!tree) {
      out.evaluated.push('it could not be parsed');
      return;
    }
    try {
      if (tree.rootNode.hasError) out.evaluated.push('it is not valid bash (or uses syntax the parser does not know), and bash may still run part of it');
      walk(tree.rootNode, out, nested, false);
    } finally {
      tree.delete();
    }
  }
  for (const script of nested) {
    // `watch watch watch …` would otherwise multiply the strings to parse at every level.
    if ((budget.scripts -= 1) < 0) {
      out.evaluated.push(`it hands more than ${MAX_SCRIPTS} command strings to shells and wrappers, too many to check`);
      return;
    }
    collect(parser, script, depth + 1, out, budget);
  }
}

function walk(node: Node, out: ParsedShellCommand, nested: string[], inTest: boolean): void {
  const evaluated = evaluatedNode(node, inTest);
  if (evaluated) out.evaluated.push(evaluated);
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
      noteEvaluation(out, evaluatingBuiltin(declarationWords(node)));
      break;
    case 'variable_assignment':
    case 'variable_assignments':
      // Inside a command it is that command's prefix (handled there); elsewhere it sets
      // the variable (PATH, LD_PRELOAD, …) for every later command of the line.
      if (node.parent?.type !== 'command') out.opaque.push(`"${node.text}" sets a variable for the commands after it`);
      if (node.type === 'variable_assignment' && evaluatedVariable(node.childForFieldName('name')?.text ?? '')) {
        out.evaluated.push(`"${node.text}" sets a variable bash runs or reads as code`);
      }
      break;
    case 'file_redirect':
      checkRedirect(node, out);
      break;
    case 'for_statement':
      for (const value of node.childrenForFieldName('value')) if (value && hasBraceExpansion(value)) out.evaluated.push(brace(value));
      break;
    case 'test_command':
      if (node.child(0)?.type === '[') noteEvaluation(out, testCommandEvaluation(bracketTestWords(node)));
      break;
    default:
      break;
  }
  if (ASSIGNING.has(node.type)) out.opaque.push(`the ${node.type.replace(/_statement$/, '').replace(/_/g, ' ')} loop sets a variable`);
  const testing = inTest || node.type === 'test_command';
  for (const child of node.children) if (child) walk(child, out, nested, testing);
}

function noteEvaluation(out: ParsedShellCommand, reason: string | undefined): void {
  if (reason) out.evaluated.push(reason);
}

/** A declaration's words as evaluatingBuiltin reads them: `declare`, flags, and `NAME=` for each assignment. */
function declarationWords(node: Node): Array<string | undefined> {
  return node.children.flatMap((child) => {
    if (!child) return [];
    if (!child.isNamed) return [child.type];
    if (child.type === 'variable_assignment') return [`${child.childForFieldName('name')?.text ?? ''}=`];
    return [literalWord(child)];
  });
}

function brace(node: Node): string {
  return `"${node.text}" is a brace expansion, which bash turns into other words`;
}

function addCommand(node: Node, out: ParsedShellCommand, nested: string[]): void {
  const nameNode = node.childForFieldName('name');
  const args = node.childrenForFieldName('argument');
  const prefix = node.namedChildren.filter((c) => c?.type === 'variable_assignment').map((c) => c!.text);
  const nameWord = nameNode ? (nameNode.namedChildren[0] ?? nameNode) : undefined;
  const name = nameWord ? literalWord(nameWord) : undefined;
  const literalName = name !== undefined && !/[*?[\]{}]/.test(name);
  const words = [literalName ? name : (nameNode?.text ?? ''), ...args.map(wordForMatching)];
  const literalArgs = args.map((a) => literalWord(a));
  const part: ShellPart = { text: words.join(' '), variants: [] };
  out.parts.push(part);
  for (const word of [nameWord, ...args]) {
    if (word && hasBraceExpansion(word)) out.evaluated.push(brace(word));
    if (word && hasFdVariableSubscript(word)) out.evaluated.push(`"${word.text}" names a file descriptor variable whose subscript bash evaluates`);
  }
  if (!literalName) {
    // Only running bash would tell which command this is (`$X`, `$'\x72m'`, `/???/rm`, `rm${IFS}x`).
    out.evaluated.push(`its command name ${nameNode?.text ?? '(none)'} is computed (an expansion, a glob or a quoted escape), not a literal word`);
    part.notAllowable = `its command name ${nameNode?.text ?? '(none)'} is computed, not a literal word`;
    return;
  }
  const unwrapped = unwrapCommand(name, literalArgs);
  nested.push(...unwrapped.scripts);
  out.evaluated.push(...unwrapped.evaluated);
  part.variants = unwrapped.variants;
  if (name === 'test') noteEvaluation(out, testCommandEvaluation(args));
  if (prefix.length > 0) part.notAllowable = `it sets ${prefix.join(' ')} for the command`;
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
