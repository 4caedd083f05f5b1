/** What a command that runs other commands from its arguments (`sh -c '…'`, `su -c '…'`) runs. */
export type CommandString =
  /** A command line given literally, to be parsed and judged in turn. */
  | { script: string }
  /** Commands the rules cannot see: read from input, or computed. */
  | { evaluated: string }
  /** Nothing besides a file it runs (`bash build.sh`), or not a command of this kind. */
  | undefined;

/** Shells: `-c STRING` runs STRING; with neither `-c` nor a script file they read commands from input. */
export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'yash', 'posh', 'rbash', 'csh', 'tcsh']);

/** Shell options that take the next word as their value. */
const SHELL_VALUE_OPTIONS = new Set(['--rcfile', '--init-file', '-o', '+o', '-O', '+O']);

/**
 * The command string a shell runs, after its options are shifted: `sh -e -c 'x'`,
 * `bash -xc 'x'`, `sh -c -- 'x'`, `bash --norc -c 'x'`. A shell given no `-c` and no script
 * file (`sh`, `bash -s`, `| sh`, `<<< '…'`) runs whatever arrives on its input.
 */
export function shellCommandString(shell: string, args: Array<string | undefined>): CommandString {
  let command = false;
  let fromInput = false;
  let i = 0;
  for (; i < args.length; i += 1) {
    const word = args[i];
    if (word === undefined) break;
    if (word === '--' || word === '-') {
      i += 1;
      break;
    }
    if (!/^[-+]./.test(word)) break;
    if (SHELL_VALUE_OPTIONS.has(word)) i += 1;
    else if (!word.startsWith('--')) {
      if (word.includes('c')) command = true;
      if (word.includes('s') || word.includes('i')) fromInput = true;
      if (/[oO]$/.test(word)) i += 1;
    }
  }
  const operand = i < args.length ? args[i] : null;
  if (operand === undefined) {
    return { evaluated: command ? `${shell} -c is given a computed command string` : `${shell} is given a computed option or script` };
  }
  if (command) {
    return operand === null ? undefined : { script: operand };
  }
  // A script "file" that is the shell's own input: `bash /dev/stdin`, `sh /proc/self/fd/0`.
  const input = operand !== null && /^\/(dev\/(stdin|fd\/\d+)|proc\/[^/]+\/fd\/\d+)$/.test(operand);
  if (fromInput || operand === null || input) return { evaluated: `${shell} reads the commands it runs from its input, which the rules cannot see` };
  return undefined;
}

/** Commands whose `-c CMD` / `--command CMD` is a command line run by a shell; without it, `su`/`sg`/`script` start one reading input. */
const COMMAND_OPTION: Record<string, { needsCommand: boolean }> = {
  su: { needsCommand: true },
  sg: { needsCommand: true },
  runuser: { needsCommand: false },
  script: { needsCommand: true },
  flock: { needsCommand: false },
};

/** The `-c` command line of su, sg, runuser, script and flock (see COMMAND_OPTION). */
export function commandOptionString(name: string, args: Array<string | undefined>): CommandString {
  const kind = COMMAND_OPTION[name];
  if (!kind) return undefined;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i];
    if (word === undefined) continue;
    if (word.startsWith('--command=') || word.startsWith('--session-command=')) return literal(name, word.slice(word.indexOf('=') + 1));
    if (word === '--command' || word === '--session-command' || /^-[A-Za-z]*c$/.test(word)) return literal(name, args[i + 1]);
    if (word === '--') break;
  }
  // runuser -u USER CMD and flock FILE CMD run CMD directly: the wrapper tails cover them.
  if (name === 'runuser' && args.some((a) => a === '-u' || a === '--user')) return undefined;
  return kind.needsCommand || name === 'runuser' ? { evaluated: `${name} without -c starts a shell that reads commands from its input` } : undefined;
}

function literal(name: string, script: string | undefined): CommandString {
  return script === undefined ? { evaluated: `${name} -c is given a computed command string` } : { script };
}
