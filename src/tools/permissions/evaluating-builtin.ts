/** Builtins that run or define code from their arguments, whatever those are. */
const ALWAYS = new Map([
  ['let', 'let evaluates its arguments as arithmetic, where an array subscript such as a[$(cmd)] runs cmd'],
  ['source', 'source runs a file the rules cannot see, in this shell (it can redefine any later command)'],
  ['.', '. runs a file the rules cannot see, in this shell (it can redefine any later command)'],
  ['alias', 'alias redefines a command name'],
  ['trap', 'trap runs its argument as a command line later'],
  ['compgen', 'compgen expands its word list and runs -C commands and -F functions'],
  ['complete', 'complete registers commands to run later'],
  ['bind', 'bind -x registers commands to run later'],
  ['enable', 'enable can load a builtin from a shared library'],
  ['hash', 'hash -p redefines which file a command name runs'],
  ['fc', 'fc runs commands from the history'],
]);

/** Builtins that assign to variables named by their arguments (`read 'a[$(cmd)]'` runs cmd). */
const NAME_TAKING = new Set(['read', 'mapfile', 'readarray', 'unset', 'declare', 'typeset', 'local', 'export', 'readonly']);

/** Declaration builtins, whose `-i` and `-n` make later assignments and references evaluate. */
const DECLARING = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);

/** Variables whose value bash itself runs or reads as code (PS4 under `set -x`, BASH_ENV, imported functions). */
export function evaluatedVariable(name: string): boolean {
  return /^(PS[0-4]|PROMPT_COMMAND|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|BASH_XTRACEFD)$/.test(name) || name.startsWith('BASH_FUNC_') || name.includes('%');
}

/**
 * Why bash evaluates something in this simple command's arguments (given as literal values,
 * undefined where computed), or undefined. Covers builtins that run strings or files, and
 * variable names with a subscript (bash evaluates it as arithmetic: `printf -v 'a[$(cmd)]' x`).
 */
export function evaluatingBuiltin(words: Array<string | undefined>): string | undefined {
  const [name, ...args] = words;
  if (name === undefined) return undefined;
  const always = ALWAYS.get(name);
  if (always) return always;
  if (name === 'eval' && args.some((a) => a === undefined)) return 'eval runs a computed command line';
  if ((name === 'mapfile' || name === 'readarray') && args.some((a) => a?.startsWith('-C'))) return `${name} -C runs a callback command`;
  if (name === 'printf') return printfName(args);
  if (!NAME_TAKING.has(name)) return undefined;
  for (const arg of args) {
    if (arg === undefined) return `${name} is given a computed word, which may name a variable with a subscript bash evaluates`;
    const variable = arg.split('=')[0] as string;
    if (variable.includes('[')) return `${name} ${clipWord(arg)}: bash evaluates the subscript as arithmetic, where $(cmd) runs cmd`;
    if (evaluatedVariable(variable)) return `${name} sets ${variable}, which bash runs or reads as code`;
    if (DECLARING.has(name) && /^[-+]/.test(arg) && /[in]/.test(arg.slice(1))) {
      return `${name} ${arg} makes later assignments or references evaluate their values as arithmetic or names`;
    }
  }
  return undefined;
}

/** `printf -v NAME` assigns to NAME, evaluating a subscript in it; a computed first word could be `-v`. */
function printfName(args: Array<string | undefined>): string | undefined {
  if (args.length > 0 && args[0] === undefined) return 'printf is given a computed first word, which could be -v with a subscripted name';
  const flag = args.findIndex((a) => a?.startsWith('-v'));
  if (flag === -1) return undefined;
  const target = args[flag] === '-v' ? args[flag + 1] : args[flag]?.slice(2);
  if (target === undefined || target.includes('[')) return 'printf -v evaluates a subscript in the variable name, where $(cmd) runs cmd';
  return evaluatedVariable(target) ? `printf -v sets ${target}, which bash runs or reads as code` : undefined;
}

function clipWord(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}
