import path from 'node:path';

/**
 * Commands whose arguments are another command (`sudo rm …`, `timeout 5 rm …`,
 * `xargs rm`): a deny or ask rule for the inner command must catch them too.
 */
const WRAPPERS = new Set([
  'sudo', 'doas', 'env', 'nohup', 'timeout', 'time', 'nice', 'ionice', 'stdbuf', 'xargs', 'exec',
  'command', 'builtin', 'setsid', 'watch', 'chroot', 'unbuffer', 'flock', 'strace', 'ltrace', 'busybox',
]);

/** Shells whose `-c STRING` argument is a command line of its own. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'su', 'busybox']);

/** What a simple command runs besides itself. */
export interface UnwrappedCommand {
  /** Spellings of the command a deny or ask rule must also catch. */
  variants: string[];
  /** Command lines it runs (`sh -c '…'`, `eval …`), to be parsed and judged in turn. */
  scripts: string[];
  /** Why what it runs cannot be read (a computed `sh -c "$X"`), if so. */
  opaque?: string;
}

/**
 * The other spellings of a command for deny and ask rules: its name without a directory
 * (`/usr/bin/rm` is `rm`), every tail after a wrapper (`sudo -u x rm -rf /` yields `rm -rf /`,
 * since options are not told apart from the command they wrap), and the strings run by
 * `sh -c`, `bash -lc` and `eval`. `args` holds each argument's literal value, or
 * undefined where it expands.
 */
export function unwrapCommand(name: string, args: Array<string | undefined>): UnwrappedCommand {
  const out: UnwrappedCommand = { variants: [], scripts: [] };
  const words = [name, ...args];
  const base = path.posix.basename(name);
  const tails = WRAPPERS.has(base) ? words.map((_, i) => words.slice(i)).slice(1) : [];
  for (const tail of [[base, ...args], ...tails]) {
    const head = tail[0];
    if (head === undefined) continue;
    const headBase = path.posix.basename(head);
    out.variants.push(show(tail));
    if (headBase !== head) out.variants.push(show([headBase, ...tail.slice(1)]));
    if (headBase === 'eval') addScript(out, tail.slice(1), 'eval');
    if (SHELLS.has(headBase)) {
      const flag = tail.findIndex((w, i) => i > 0 && w !== undefined && /^-[A-Za-z]*c[A-Za-z]*$/.test(w));
      if (flag !== -1) addScript(out, tail.slice(flag + 1, flag + 2), `${headBase} -c`);
    }
  }
  out.variants = [...new Set(out.variants)];
  return out;
}

function addScript(out: UnwrappedCommand, words: Array<string | undefined>, what: string): void {
  if (words.length === 0) return;
  if (words.some((w) => w === undefined)) {
    out.opaque = `the command line it hands to ${what} is computed, not literal`;
    return;
  }
  out.scripts.push(words.join(' '));
}

function show(words: Array<string | undefined>): string {
  return words.map((w) => w ?? '$?').join(' ');
}
