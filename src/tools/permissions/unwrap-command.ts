import path from 'node:path';
import { commandOptionString, SHELLS, shellCommandString, type CommandString } from './command-string-argument.js';
import { evaluatedVariable, evaluatingBuiltin } from './evaluating-builtin.js';

/**
 * Commands whose arguments are another command (`sudo rm …`, `timeout -s KILL 5 rm …`,
 * `xargs -I{} rm {}`): a deny or ask rule for the inner command must catch them too.
 * Their options are not parsed: every tail of the words is tried as the inner command.
 */
const WRAPPERS = new Set([
  'sudo', 'doas', 'env', 'nohup', 'timeout', 'time', 'nice', 'ionice', 'stdbuf', 'xargs', 'exec', 'command', 'builtin',
  'setsid', 'watch', 'chroot', 'unbuffer', 'flock', 'strace', 'ltrace', 'busybox', 'chrt', 'taskset', 'unshare',
  'setpriv', 'runuser', 'su', 'sg', 'parallel', 'script', 'nsenter', 'prlimit', 'numactl', 'cpulimit', 'fakeroot',
  'fakechroot', 'firejail', 'systemd-run', 'proxychains', 'proxychains4', 'torsocks', 'coproc', 'catchsegv',
  'valgrind', 'pkexec', 'dbus-run-session', 'xvfb-run', 'ssh-agent', 'chpst', 'setuidgid', 'softlimit', 'rlwrap', 'ssh',
]);

/** Wrappers that hand their arguments, joined, to a shell (`watch 'a; b'`, `sudo -s 'a; b'`). */
const JOINING = new Set(['watch', 'parallel']);

/** `find` actions followed by a command that ends at `;` or `+`. */
const FIND_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** How many command spellings one simple command may produce before it counts as evaluated. */
const MAX_SPELLINGS = 256;

/** How many words after a wrapper are tried as the start of the inner command. */
const MAX_WRAPPER_SHIFT = 64;

/** What a simple command runs besides itself. */
export interface UnwrappedCommand {
  /** Spellings of the command a deny or ask rule must also catch. */
  variants: string[];
  /** Command lines it runs (`sh -c '…'`, `eval …`, `watch '…'`), to be parsed and judged in turn. */
  scripts: string[];
  /** Why it runs something the rules cannot see (`| sh`, `sh -c "$X"`, `env -S`, `let`), if it does. */
  evaluated: string[];
}

/**
 * The other spellings of a command for deny and ask rules: its name without a directory
 * (`/usr/bin/rm` is `rm`), every tail after a wrapper (`nice -n 5 rm x` yields `rm x`),
 * `find -exec` commands, and the command lines run by shells, `eval`, `su -c`, `watch`.
 * `args` holds each argument's literal value, or undefined where it expands.
 */
export function unwrapCommand(name: string, args: Array<string | undefined>): UnwrappedCommand {
  const out: UnwrappedCommand = { variants: [], scripts: [], evaluated: [] };
  let budget = MAX_SPELLINGS;
  const visit = (words: Array<string | undefined>, top = false): void => {
    const head = words[0];
    if (head === undefined) return;
    if ((budget -= 1) < 0) {
      if (budget === -1) out.evaluated.push('it nests too many wrapper commands to check');
      return;
    }
    const base = path.posix.basename(head);
    const rest = words.slice(1);
    out.variants.push(show(words));
    if (base !== head) out.variants.push(show([base, ...rest]));
    const builtin = evaluatingBuiltin([base, ...rest]);
    if (builtin) out.evaluated.push(builtin);
    // The command itself is checked word by word by the parser; behind a wrapper only values are known.
    if (!top && (base === 'test' || base === '[') && rest.some((w) => w === undefined || w === '-v' || w === '-R')) {
      out.evaluated.push(`${base} -v evaluates an array subscript in the variable name (a computed operand could become -v)`);
    }
    if (base === 'eval' && rest.length > 0 && rest.every((w) => w !== undefined)) out.scripts.push(rest.join(' '));
    if (SHELLS.has(base)) take(shellCommandString(base, rest));
    take(commandOptionString(base, rest));
    if (base === 'env' && rest.some((w) => w === '-S' || w?.startsWith('--split-string') || /^-[A-Za-z]*S/.test(w ?? ''))) {
      out.evaluated.push('env -S splits a string into a command the rules cannot check');
    }
    if ((base === 'sudo' || base === 'doas') && rest.some((w) => w !== undefined && /^-[A-Za-z]*[si]/.test(w))) takeJoined(base, afterSudoOptions(rest));
    if (JOINING.has(base)) takeJoined(base, rest);
    if (base === 'find') for (const command of findCommands(rest)) visit(command);
    if (!WRAPPERS.has(base)) return;
    for (const word of rest) {
      const variable = word?.match(/^([^=]+)=/)?.[1];
      if (variable !== undefined && evaluatedVariable(variable)) out.evaluated.push(`${base} sets ${variable}, which bash runs or reads as code`);
    }
    if (words.length > MAX_WRAPPER_SHIFT + 1) {
      out.evaluated.push(`${base} has more than ${MAX_WRAPPER_SHIFT} arguments, too many to find the command it runs`);
    }
    for (let i = 1; i < Math.min(words.length, MAX_WRAPPER_SHIFT + 1); i += 1) visit(words.slice(i));
  };
  const take = (found: CommandString): void => {
    if (found && 'script' in found) out.scripts.push(found.script);
    else if (found) out.evaluated.push(found.evaluated);
  };
  const takeJoined = (base: string, rest: Array<string | undefined>): void => {
    if (rest.some((w) => w === undefined)) out.evaluated.push(`${base} hands a computed command line to a shell`);
    else if (rest.length > 0) out.scripts.push(rest.join(' '));
    else out.evaluated.push(`${base} starts a shell that reads commands from its input`);
  };
  visit([name, ...args], true);
  out.variants = [...new Set(out.variants)];
  out.scripts = [...new Set(out.scripts)];
  out.evaluated = [...new Set(out.evaluated)];
  return out;
}

/** sudo's and doas's options that take the next word as their value. */
const SUDO_VALUE_OPTIONS = new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-T', '-U']);

/** The words after sudo's (or doas's) options: what `sudo -s` hands to the shell. */
function afterSudoOptions(args: Array<string | undefined>): Array<string | undefined> {
  let i = 0;
  while (i < args.length && args[i] !== undefined && /^-/.test(args[i] as string)) {
    if (args[i] === '--') return args.slice(i + 1);
    i += SUDO_VALUE_OPTIONS.has(args[i] as string) ? 2 : 1;
  }
  return args.slice(i);
}

/** The commands of `find … -exec CMD … ;` (also `-execdir`, `-ok`, `-okdir`, ending at `;` or `+`). */
function findCommands(args: Array<string | undefined>): Array<Array<string | undefined>> {
  const commands: Array<Array<string | undefined>> = [];
  for (let i = 0; i < args.length; i += 1) {
    if (!FIND_ACTIONS.has(args[i] ?? '')) continue;
    const end = args.findIndex((w, j) => j > i && (w === ';' || w === '+'));
    commands.push(args.slice(i + 1, end === -1 ? undefined : end));
    if (end !== -1) i = end;
  }
  return commands;
}

function show(words: Array<string | undefined>): string {
  return words.map((w) => w ?? '$?').join(' ');
}
